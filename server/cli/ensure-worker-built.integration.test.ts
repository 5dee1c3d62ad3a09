/**
 * `trainyard start` builds the worker bundle when it is missing or stale, like the web
 * app: a folder per source version, built once for concurrent starts, old folders left
 * alone. Runs the real build (esbuild) in a throw-away copy of the worker's inputs, so the
 * repository's own dist/ is never touched, and runs the bundle it made.
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ensureWorkerBuilt, WORKER_BUILDS, WORKER_INPUTS, workerFingerprint } from "./ensure-worker-built";

const REPO = path.resolve(import.meta.dirname, "../..");
let root: string;

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), "trainyard-worker-build-"));
  for (const input of WORKER_INPUTS) cpSync(path.join(REPO, input), path.join(root, input), { recursive: true });
  cpSync(path.join(REPO, "package.json"), path.join(root, "package.json"));
  symlinkSync(path.join(REPO, "node_modules"), path.join(root, "node_modules"), "dir");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const sha = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

function runBundle(entry: string): { version: string; protocol: number } {
  const r = spawnSync(process.execPath, [entry, "version"], { encoding: "utf8" });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { version: string; protocol: number };
}

describe("ensureWorkerBuilt", () => {
  it("builds a runnable bundle into a folder named by the sources when there is no dist/", async () => {
    expect(existsSync(path.join(root, "dist"))).toBe(false);
    const lines: string[] = [];
    const entry = await ensureWorkerBuilt(root, (l) => lines.push(l));
    expect(entry).toBe(path.join(root, WORKER_BUILDS, workerFingerprint(root), "trainyard-worker.mjs"));
    expect(lines).toEqual(["Building the worker (first start or after an update; a few seconds)…"]);
    for (const f of ["VERSION", "checksum.json"]) expect(existsSync(path.join(path.dirname(entry), f))).toBe(true);
    const versionFile = readFileSync(path.join(path.dirname(entry), "VERSION"), "utf8").trim();
    expect(runBundle(entry).version).toBe(versionFile);
    // Current sources: the second start reuses the bundle without building.
    expect(await ensureWorkerBuilt(root, (l) => lines.push(l))).toBe(entry);
    expect(lines).toHaveLength(1);
  });

  it("builds once for concurrent starts", async () => {
    const lines: string[] = [];
    const entries = await Promise.all([1, 2, 3].map(() => ensureWorkerBuilt(root, (l) => lines.push(l))));
    expect(new Set(entries).size).toBe(1);
    expect(lines).toHaveLength(1);
    expect(existsSync(`${path.dirname(entries[0]!)}.building`)).toBe(false);
  });

  it("rebuilds into a new folder after a worker source changes, leaving the running bundle's folder intact", async () => {
    const first = await ensureWorkerBuilt(root, () => {});
    const before = sha(first);
    appendFileSync(path.join(root, "worker", "src", "version.ts"), "\n// a local change\n");
    const second = await ensureWorkerBuilt(root, () => {});
    expect(path.dirname(second)).not.toBe(path.dirname(first));
    expect(sha(first)).toBe(before);
    runBundle(first);
    runBundle(second);
  });

  it("takes over a lock left by a build that died", async () => {
    const dir = path.join(root, WORKER_BUILDS, workerFingerprint(root));
    mkdirSync(path.dirname(dir), { recursive: true });
    // A pid that is not running: a child that has already exited.
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout;
    writeFileSync(`${dir}.building`, dead);
    const entry = await ensureWorkerBuilt(root, () => {});
    runBundle(entry);
    expect(existsSync(`${dir}.building`)).toBe(false);
  });

  it("fingerprints every file esbuild bundles (packages through package-lock.json)", async () => {
    const script = (await import(path.join(REPO, "scripts", "build-worker.mjs"))) as {
      buildWorker: (o: { outDir: string }) => Promise<{ inputs: string[] }>;
    };
    const { inputs } = await script.buildWorker({ outDir: path.join(root, "out") });
    const own = inputs.filter((p) => !p.startsWith(`node_modules${path.sep}`));
    expect(own.length).toBeGreaterThan(10);
    const uncovered = own.filter((p) => !WORKER_INPUTS.some((i) => p === i || p.startsWith(`${i}${path.sep}`)));
    expect(uncovered).toEqual([]);
  });
});
