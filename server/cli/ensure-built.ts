/**
 * `npm start` builds the web app when needed. Each source version (a fingerprint of the
 * paths, sizes and modification times of everything that goes into the build) is built
 * into its own folder `.next-builds/<fingerprint>/`, so a rebuild never replaces files
 * that a running server still reads. Concurrent starts of one version build it once (a
 * lock file); builds other than the newest two are removed when unused for a day.
 * The worker bundle is built the same way: ensure-worker-built.ts.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CliError } from "./cli-error";
import { buildOnce } from "./build/build-lock";
import { fingerprint } from "./build/fingerprint";
import { pruneOldBuilds } from "./build/prune-builds";

const INPUTS = ["app", "components", "contracts", "server", "public", "next.config.ts", "package-lock.json", "postcss.config.mjs", "tsconfig.json", "generated"];
const BUILDS = ".next-builds";

/** Returns the distDir (relative to the repo) holding a build of the current sources. */
export async function ensureBuilt(root: string): Promise<string> {
  const buildsDir = path.join(root, BUILDS);
  mkdirSync(buildsDir, { recursive: true });
  writeFileSync(path.join(buildsDir, "tsconfig.json"), JSON.stringify({ extends: "../tsconfig.json" }, null, 2));
  const fp = fingerprint(root, INPUTS);
  const distRel = path.join(BUILDS, fp);
  const dist = path.join(root, distRel);
  // Next writes BUILD_ID last: its presence means a complete build.
  await buildOnce(`${dist}.building`, () => existsSync(path.join(dist, "BUILD_ID")), () => {
    rmSync(dist, { recursive: true, force: true });
    console.log("Building the web app (first start or after an update; about three minutes on two cores)…");
    const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
    const result = spawnSync(process.execPath, [nextBin, "build"], {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", TRAINYARD_DIST_DIR: distRel },
    });
    if (result.status !== 0) {
      rmSync(dist, { recursive: true, force: true });
      throw new CliError("The web app build failed; see the output above.");
    }
    pruneOldBuilds(buildsDir, fp);
  });
  return distRel;
}
