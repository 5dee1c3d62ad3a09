#!/usr/bin/env node
// Build the self-contained worker bundle into dist/worker/:
//   trainyard-worker.mjs  (one ESM file, zod inlined, Node 18+ built-ins only)
//   VERSION               (the worker version)
//   checksum.json         (sha256 of each bundle file)
// Copy dist/worker/ together with training/ to another Linux machine and run
//   node trainyard-worker.mjs control --home DIR
// Each file is written to a temp name and renamed, so a supervisor starting during a
// rebuild never loads half a bundle. `trainyard start` builds its own copy per source
// version into dist/worker-builds/<fingerprint>/ (server/cli/ensure-worker-built.ts);
// dist/worker/ is the folder to copy by hand and the one the tests build.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

function writeAtomic(file, data) {
  const tmp = `${file}.tmp-${process.pid}-${crypto.randomBytes(4).toString("hex")}`;
  fs.writeFileSync(tmp, data);
  fs.renameSync(tmp, file);
}

export async function buildWorker({ outDir = path.join(repo, "dist", "worker") } = {}) {
  fs.mkdirSync(outDir, { recursive: true });
  const result = await esbuild.build({
    entryPoints: [path.join(repo, "worker", "src", "main.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node18",
    write: false,
    legalComments: "none",
    banner: { js: "#!/usr/bin/env node" },
    logLevel: "warning",
    metafile: true,
  });
  const bundle = Buffer.from(result.outputFiles[0].contents);
  const versionSrc = fs.readFileSync(path.join(repo, "worker", "src", "version.ts"), "utf8");
  const version = /WORKER_VERSION = "([^"]+)"/.exec(versionSrc)?.[1] ?? "0.0.0";
  const files = { "trainyard-worker.mjs": bundle, VERSION: Buffer.from(version + "\n") };
  const sums = {};
  for (const [name, data] of Object.entries(files)) {
    const dest = path.join(outDir, name);
    const same = fs.existsSync(dest) && fs.readFileSync(dest).equals(data);
    if (!same) writeAtomic(dest, data);
    sums[name] = crypto.createHash("sha256").update(data).digest("hex");
  }
  fs.chmodSync(path.join(outDir, "trainyard-worker.mjs"), 0o755);
  writeAtomic(path.join(outDir, "checksum.json"), JSON.stringify({ version, algorithm: "sha256", files: sums }, null, 2) + "\n");
  // Every file esbuild read, relative to the repo: what a fingerprint of the bundle's sources must cover.
  const inputs = Object.keys(result.metafile.inputs).map((p) => path.relative(repo, path.resolve(p)));
  return { outDir, entry: path.join(outDir, "trainyard-worker.mjs"), version, sha256: sums["trainyard-worker.mjs"], inputs };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const r = await buildWorker();
  console.log(`built ${r.entry} (version ${r.version}, sha256 ${r.sha256.slice(0, 12)})`);
}
