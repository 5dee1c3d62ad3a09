// The CLI as one esbuild bundle per state of its sources (dist/cli/<id>/), so a command
// starts in about 0.2 s of CPU instead of about 1.3 s through tsx, which resolves and
// transforms every module of the CLI at each start (measured on 2 CPUs: `trainyard models
// --help` 0.9 s wall through tsx, 0.2 s from the bundle). The bundle records every file
// esbuild read with its size and modification time; a start whose files all match uses
// it, any other start builds a new one first (about a second). Anything failing here
// returns null and the caller runs the sources through tsx as before.
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const ENTRY = "server/cli/main.ts";

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

const stamp = (root, rel) => {
  const st = statSync(path.join(root, rel));
  return [rel, st.size, st.mtimeMs];
};

function isFresh(root, inputs) {
  try {
    return inputs.every(([rel, size, mtimeMs]) => {
      const [, s, m] = stamp(root, rel);
      return s === size && m === mtimeMs;
    });
  } catch {
    return false; // a file that is gone
  }
}

function writeAtomic(file, text) {
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

const KEEP = 10;
const DAY_MS = 24 * 3600 * 1000;

/** Old bundles go, but never one of the newest few or one built within a day: a server
 * started from it may still load one of its chunks. */
function prune(bundles, current) {
  const dirs = readdirSync(bundles, { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name !== current && !e.name.startsWith("."))
    .map((e) => ({ dir: path.join(bundles, e.name), at: statSync(path.join(bundles, e.name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const { dir, at } of dirs.slice(KEEP)) if (Date.now() - at > DAY_MS) rmSync(dir, { recursive: true, force: true });
}

async function build(root, bundles) {
  const esbuild = await import("esbuild");
  const tmp = path.join(bundles, `.building-${process.pid}-${randomBytes(4).toString("hex")}`);
  try {
    const result = await esbuild.build({
      absWorkingDir: root,
      entryPoints: [ENTRY],
      bundle: true,
      splitting: true,
      platform: "node",
      format: "esm",
      target: "node20",
      packages: "external",
      tsconfig: path.join(root, "tsconfig.json"),
      outdir: tmp,
      metafile: true,
      logLevel: "silent",
    });
    // An `@/` path esbuild could not resolve (generated/ not made yet: `npm install` runs
    // prisma generate after a command may already have run) would be left as a package
    // import that fails at run time: no bundle then, and the next command tries again.
    const unresolved = Object.values(result.metafile.outputs).flatMap((o) => o.imports).filter((i) => i.external && i.path.startsWith("@/"));
    if (unresolved.length) throw new Error(`cannot resolve ${unresolved[0].path} yet`);
    const read = Object.keys(result.metafile.inputs).map((p) => path.relative(root, path.resolve(root, p)));
    const inputs = [...new Set([...read, "tsconfig.json", "package-lock.json"])].filter((rel) => existsSync(path.join(root, rel))).sort().map((rel) => stamp(root, rel));
    const text = JSON.stringify(inputs);
    writeFileSync(path.join(tmp, "inputs.json"), text);
    const id = createHash("sha256").update(text).digest("hex").slice(0, 16);
    const dir = path.join(bundles, id);
    // Another start may have built the same sources meanwhile: its copy is as good.
    if (!existsSync(path.join(dir, "inputs.json"))) {
      rmSync(dir, { recursive: true, force: true });
      renameSync(tmp, dir);
    }
    writeAtomic(path.join(bundles, "current"), id);
    prune(bundles, id);
    return dir;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** The bundled CLI's `main`, built first when its sources changed; null when it cannot be had. */
export async function bundledMain(root) {
  if (process.env.TRAINYARD_CLI_FROM_SOURCES === "1") return null;
  try {
    const bundles = path.join(root, "dist", "cli");
    const current = existsSync(path.join(bundles, "current")) ? readFileSync(path.join(bundles, "current"), "utf8").trim() : "";
    let dir = current ? path.join(bundles, current) : "";
    const inputs = dir ? readJson(path.join(dir, "inputs.json")) : null;
    if (!inputs || !isFresh(root, inputs)) {
      mkdirSync(bundles, { recursive: true });
      dir = await build(root, bundles);
    }
    return (await import(pathToFileURL(path.join(dir, "main.js")).href)).main;
  } catch (err) {
    if (process.env.TRAINYARD_DEBUG) console.error(`trainyard: running the CLI from its sources (${err?.message ?? err})`);
    return null;
  }
}
