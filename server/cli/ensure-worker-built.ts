/**
 * `npm start` builds the worker bundle (scripts/build-worker.mjs) the same way as the web
 * app: one folder per source version, `dist/worker-builds/<fingerprint>/`, built once
 * under a lock and appearing by one rename, so a complete bundle is the only thing
 * anyone sees. A server runs the bundle of the sources it started from
 * (TRAINYARD_WORKER_BUNDLE), and detached supervisors keep their folder, even when a
 * newer start builds another version beside it. The fingerprint hashes the contents of
 * everything esbuild bundles (a test checks the list against esbuild's own); contents,
 * not times, because the inputs are small and a checkout touches every file.
 */
import { existsSync, mkdirSync, renameSync, rmSync, utimesSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { CliError } from "./cli-error";
import { buildOnce } from "./build/build-lock";
import { fingerprint } from "./build/fingerprint";
import { pruneOldBuilds } from "./build/prune-builds";

/** What goes into the bundle: the worker's sources, the contracts it imports (protocol, lifecycles), zod (package-lock) and the build script. */
export const WORKER_INPUTS = ["worker/src", "contracts", "scripts/build-worker.mjs", "package-lock.json"] as const;
export const WORKER_BUILDS = path.join("dist", "worker-builds");
export const WORKER_ENTRY = "trainyard-worker.mjs";

type BuildWorker = (opts: { outDir: string }) => Promise<{ entry: string; version: string }>;

export function workerFingerprint(root: string): string {
  return fingerprint(root, WORKER_INPUTS, { content: true });
}

/** Returns the absolute path of a bundle built from the current worker sources. */
export async function ensureWorkerBuilt(root: string, log: (line: string) => void = console.log): Promise<string> {
  const buildsDir = path.join(root, WORKER_BUILDS);
  mkdirSync(buildsDir, { recursive: true });
  const fp = workerFingerprint(root);
  const dir = path.join(buildsDir, fp);
  const entry = path.join(dir, WORKER_ENTRY);
  await buildOnce(`${dir}.building`, () => existsSync(entry), async () => {
    const partial = `${dir}.partial-${process.pid}`;
    rmSync(partial, { recursive: true, force: true });
    log("Building the worker (first start or after an update; a few seconds)…");
    try {
      const script = pathToFileURL(path.join(root, "scripts", "build-worker.mjs")).href;
      const { buildWorker } = (await import(script)) as { buildWorker: BuildWorker };
      await buildWorker({ outDir: partial });
      renameSync(partial, dir);
    } catch (err) {
      rmSync(partial, { recursive: true, force: true });
      throw new CliError(`The worker build failed: ${(err as Error).message}`);
    }
    pruneOldBuilds(buildsDir, fp);
  });
  // Marks the folder as used now, so pruning spares the bundle a server runs.
  const now = new Date();
  utimesSync(dir, now, now);
  return entry;
}
