/**
 * What "Set up" copies to a server: this version's worker bundle (dist/worker), the
 * recipes folder This computer's worker uses (training/), and the environment builder
 * (training/tools, as `tools/`), without caches. Each file carries its SHA-256, and the
 * whole install one checksum over the sorted list, so what arrived can be verified.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

export interface InstallFile {
  /** Where it goes, relative to the worker directory. */
  dest: string;
  local: string;
  bytes: number;
  sha256: string;
}

export interface InstallPlan {
  version: string;
  files: InstallFile[];
  bytes: number;
  checksum: string;
}

const SKIP_DIRS = new Set(["__pycache__", ".pytest_cache", ".venv", "node_modules", ".mypy_cache"]);

function walk(root: string, rel = ""): string[] {
  const out: string[] = [];
  for (const e of readdirSync(path.join(root, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name)) out.push(...walk(root, r));
    } else if (e.isFile() && !e.name.endsWith(".pyc")) out.push(r);
  }
  return out;
}

function fileEntry(local: string, dest: string): InstallFile {
  const data = readFileSync(local);
  return { dest, local, bytes: statSync(local).size, sha256: createHash("sha256").update(data).digest("hex") };
}

export function installChecksum(files: Pick<InstallFile, "dest" | "sha256">[]): string {
  const lines = [...files].sort((a, b) => a.dest.localeCompare(b.dest)).map((f) => `${f.sha256}  ${f.dest}\n`);
  return createHash("sha256").update(lines.join("")).digest("hex");
}

/** Folders of the install that are swapped as a whole. */
export const INSTALL_DIRS = ["training", "tools"] as const;

export function installPlan(bundleDir: string, trainingDir: string, toolsDir: string): InstallPlan {
  const files: InstallFile[] = [];
  for (const name of readdirSync(bundleDir)) {
    const local = path.join(bundleDir, name);
    if (statSync(local).isFile()) files.push(fileEntry(local, name));
  }
  if (!files.some((f) => f.dest === "trainyard-worker.mjs")) throw new Error(`${bundleDir} has no worker bundle; run npm run build:worker`);
  for (const rel of walk(trainingDir)) files.push(fileEntry(path.join(trainingDir, rel), `training/${rel}`));
  for (const rel of walk(toolsDir)) files.push(fileEntry(path.join(toolsDir, rel), `tools/${rel}`));
  const version = readFileSync(path.join(bundleDir, "VERSION"), "utf8").trim();
  return { version, files, bytes: files.reduce((n, f) => n + f.bytes, 0), checksum: installChecksum(files) };
}
