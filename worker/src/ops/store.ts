// Files in and out of the worker's content-addressed store: put (verify an uploaded
// part and move it in atomically), peek (first lines of a file in an allowed root, read
// only from the descriptor that was checked), artifacts and fetch (a job's verified
// outputs). Import is a job: ops/import.ts. Stored blobs are read-only (0444).
import fs from "node:fs";
import path from "node:path";
import type { z } from "zod";
import type { ZArtifactsRequest, ZFetchRequest, ZPeekRequest, ZPutRequest } from "../../../contracts/worker/requests";
import { WorkerError } from "../errors";
import { sha256File } from "../fsx";
import { openInRoots } from "../paths";
import { storeBlob } from "../store-blob";
import { unsafeRelativePath } from "../supervisor/manifest";
import { jobPaths } from "../supervisor/command";
import type { Ctx } from "./context";
import { currentReceipt } from "./jobs";

export async function put(ctx: Ctx, req: z.output<typeof ZPutRequest>) {
  const blob = ctx.home.blob(req.sha256);
  const done = { complete: true, offset: req.bytes, sha256: req.sha256, bytes: req.bytes, path: blob };
  const part = ctx.home.part(req.sha256);
  if (fs.existsSync(blob)) {
    // The bytes are stored already: a part for them (this upload's copy) is never needed again.
    fs.rmSync(part, { force: true });
    return done;
  }
  const size = fs.statSync(part, { throwIfNoEntry: false })?.size ?? 0;
  if (size < req.bytes) return { complete: false, offset: size, sha256: req.sha256, bytes: req.bytes, path: null };
  const actual = await sha256File(part);
  if (actual.bytes !== req.bytes || actual.sha256 !== req.sha256) {
    fs.rmSync(part, { force: true });
    throw new WorkerError("hash_mismatch", `uploaded part for ${req.sha256} has ${actual.bytes} bytes with SHA-256 ${actual.sha256}; expected ${req.bytes} bytes; the part was deleted`, {
      expected: { sha256: req.sha256, bytes: req.bytes },
      actual,
    });
  }
  try {
    storeBlob(ctx.home, part, req.sha256);
  } catch (err) {
    if (!fs.existsSync(blob)) throw err; // lost a race to an identical put: fine
    fs.rmSync(part, { force: true });
  }
  return done;
}

export function peek(ctx: Ctx, req: z.output<typeof ZPeekRequest>) {
  const store = ctx.home.p("store");
  if (req.sha256 && !fs.existsSync(ctx.home.blob(req.sha256))) throw new WorkerError("not_found", `no blob ${req.sha256} in the store`);
  const src = req.sha256 ? openInRoots(ctx.home.blob(req.sha256), [store]) : openInRoots(req.path!, [...ctx.cfg.allowedRoots, store]);
  try {
    const size = src.stat.size;
    const buf = Buffer.alloc(Math.min(req.maxBytes, size));
    const n = fs.readSync(src.fd, buf, 0, buf.length, 0);
    const text = buf.subarray(0, n).toString("utf8");
    let lines = text.split(/\r?\n/);
    const cutMidLine = n < size && !text.endsWith("\n");
    if (cutMidLine) lines.pop(); // never return half a row
    if (text.endsWith("\n")) lines.pop();
    const truncated = lines.length > req.maxRows || n < size;
    lines = lines.slice(0, req.maxRows);
    return { path: src.real, bytes: size, mtimeMs: src.stat.mtimeMs, lines, truncated };
  } finally {
    fs.closeSync(src.fd);
  }
}

function manifestOf(ctx: Ctx, jobId: string) {
  const r = currentReceipt(ctx, jobId);
  if (r.state !== "succeeded" || !r.outputSha256) {
    throw new WorkerError("not_found", `job ${jobId} has no verified outputs (state ${r.state}${r.reason ? `, ${r.reason}` : ""})`);
  }
  const outputDir = jobPaths(r.jobDir).outputDir;
  const manifest = JSON.parse(fs.readFileSync(path.join(outputDir, "manifest.json"), "utf8")) as { files: Array<{ path: string; bytes: number; sha256: string }> };
  return { r, outputDir, files: manifest.files };
}

export function artifacts(ctx: Ctx, req: z.output<typeof ZArtifactsRequest>) {
  const { r, outputDir, files } = manifestOf(ctx, req.jobId);
  return { jobId: r.jobId, outputDir, outputSha256: r.outputSha256!, files };
}

export function fetchOutput(ctx: Ctx, req: z.output<typeof ZFetchRequest>) {
  const { outputDir, files } = manifestOf(ctx, req.jobId);
  const bad = unsafeRelativePath(req.path);
  if (bad) throw new WorkerError("path_not_allowed", `fetch of job ${req.jobId}: ${bad}`);
  const entry = files.find((f) => f.path === req.path);
  if (!entry) throw new WorkerError("not_found", `job ${req.jobId} has no output ${req.path} in its manifest`);
  const full = path.join(outputDir, req.path);
  const real = fs.realpathSync(full);
  const realOut = fs.realpathSync(outputDir);
  if (!real.startsWith(realOut + path.sep) || !fs.lstatSync(full).isFile()) {
    throw new WorkerError("path_not_allowed", `output ${req.path} of job ${req.jobId} is not a regular file inside its output dir`);
  }
  return { path: real, sha256: entry.sha256, bytes: entry.bytes };
}
