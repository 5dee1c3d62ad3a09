// gc: delete job dirs of terminal jobs older than N days (receipts stay, marked gcAt),
// incoming parts older than a day, and — only with includeStore — store blobs older
// than N days that no active job references. A job dir whose checkpoints an active job
// resumes from (`checkpoints:<jobId>` in its inputRefs) is kept until that job ends. A dry
// run reports the same list. A request naming `blobs` or `jobIds` removes only those
// (gcNamed, gcJobs).
import fs from "node:fs";
import path from "node:path";
import type { z } from "zod";
import type { ZGcRequest } from "../../../contracts/worker/requests";
import type { TReceipt } from "../../../contracts/worker/receipt";
import { isActive, isTerminal } from "../../../contracts/worker/states";
import { verifiedMarker } from "../blob-verify";
import { nowIso } from "../fsx";
import { checkpointJobsOf, unindexOutput } from "../inputs";
import { listReceipts, updateReceipt } from "../receipts";
import type { Ctx } from "./context";

function duBytes(p: string): number {
  const st = fs.lstatSync(p, { throwIfNoEntry: false });
  if (!st) return 0;
  if (!st.isDirectory()) return st.size;
  return fs.readdirSync(p).reduce((s, n) => s + duBytes(path.join(p, n)), 0);
}

function makeWritable(p: string): void {
  // Outputs are frozen 0444 (dirs stay writable), so rm works; re-allow write for safety.
  const st = fs.lstatSync(p, { throwIfNoEntry: false });
  if (!st || st.isSymbolicLink()) return;
  fs.chmodSync(p, st.mode | 0o200);
  if (st.isDirectory()) for (const n of fs.readdirSync(p)) makeWritable(path.join(p, n));
}

/** A job's folder and output index go; its receipt stays, marked gcAt. */
function removeJobDir(home: Ctx["home"], r: TReceipt): void {
  makeWritable(r.jobDir);
  fs.rmSync(r.jobDir, { recursive: true, force: true });
  if (r.outputSha256) unindexOutput(home, r.outputSha256, r.jobId);
  updateReceipt(home, r.jobId, (x) => ({ ...x, gcAt: nowIso() }));
}

type NamedOutcome = "removed" | "absent" | "in_use";

/**
 * Removes exactly the named store blobs (the controller deleting a dataset's snapshot):
 * no job dir, part or other blob is touched. The path is built from a validated hash
 * inside the store, never from a user's path; a blob an active job reads is kept.
 */
function gcNamed(ctx: Ctx, shas: string[], dryRun: boolean) {
  const { home } = ctx;
  const referenced = new Set(listReceipts(home).receipts.filter((r) => isActive(r.state)).flatMap((r) => r.inputRefs));
  const named: { sha256: string; outcome: NamedOutcome }[] = [];
  const blobs: string[] = [];
  let freedBytes = 0;
  for (const sha of new Set(shas)) {
    const st = fs.lstatSync(home.blob(sha), { throwIfNoEntry: false });
    if (!st?.isFile()) {
      named.push({ sha256: sha, outcome: "absent" });
      continue;
    }
    if (referenced.has(sha)) {
      named.push({ sha256: sha, outcome: "in_use" });
      continue;
    }
    named.push({ sha256: sha, outcome: "removed" });
    blobs.push(sha);
    freedBytes += st.size;
    if (dryRun) continue;
    fs.rmSync(home.blob(sha), { force: true });
    fs.rmSync(verifiedMarker(home, sha), { force: true });
  }
  return { dryRun, jobs: [], incoming: [], blobs, freedBytes, named };
}

/** Removes the folders of exactly the named ended jobs (their receipts stay, marked gcAt). */
function gcJobs(ctx: Ctx, jobIds: string[], dryRun: boolean): { jobs: string[]; freedBytes: number } {
  const { home } = ctx;
  const jobs: string[] = [];
  let freedBytes = 0;
  for (const r of listReceipts(home).receipts.filter((x) => jobIds.includes(x.jobId))) {
    if (!isTerminal(r.state) || r.gcAt || !fs.existsSync(r.jobDir)) continue;
    jobs.push(r.jobId);
    freedBytes += duBytes(r.jobDir);
    if (!dryRun) removeJobDir(home, r);
  }
  return { jobs, freedBytes };
}

export function gc(ctx: Ctx, req: z.output<typeof ZGcRequest>) {
  if (req.blobs || req.jobIds) {
    const named = req.blobs ? gcNamed(ctx, req.blobs, req.dryRun) : { dryRun: req.dryRun, jobs: [], incoming: [], blobs: [], freedBytes: 0, named: [] };
    if (!req.jobIds) return named;
    const jobs = gcJobs(ctx, req.jobIds, req.dryRun);
    return { ...named, jobs: jobs.jobs, freedBytes: named.freedBytes + jobs.freedBytes };
  }
  const { home } = ctx;
  const cutoff = Date.now() - req.olderThanDays * 86_400_000;
  const { receipts } = listReceipts(home);
  const jobs: string[] = [];
  const incoming: string[] = [];
  const blobs: string[] = [];
  let freedBytes = 0;
  const active = receipts.filter((r) => isActive(r.state));
  const resumedFrom = new Set(active.flatMap((r) => checkpointJobsOf(r.inputRefs)));

  for (const r of receipts) {
    if (!isTerminal(r.state) || r.gcAt || !r.endedAt || Date.parse(r.endedAt) > cutoff) continue;
    if (resumedFrom.has(r.jobId)) continue;
    if (!fs.existsSync(r.jobDir)) continue;
    jobs.push(r.jobId);
    freedBytes += duBytes(r.jobDir);
    if (!req.dryRun) removeJobDir(home, r);
  }

  const dayAgo = Date.now() - 86_400_000;
  for (const f of fs.readdirSync(home.p("incoming"))) {
    const p = path.join(home.p("incoming"), f);
    const st = fs.statSync(p, { throwIfNoEntry: false });
    if (!st || st.mtimeMs > dayAgo) continue;
    incoming.push(f);
    freedBytes += st.size;
    if (!req.dryRun) fs.rmSync(p, { force: true });
  }

  if (req.includeStore) {
    const referenced = new Set(active.flatMap((r) => r.inputRefs));
    for (const sub of fs.readdirSync(home.p("store"))) {
      for (const sha of fs.readdirSync(home.p("store", sub))) {
        const p = home.p("store", sub, sha);
        const st = fs.statSync(p);
        if (referenced.has(sha) || st.mtimeMs > cutoff) continue;
        blobs.push(sha);
        freedBytes += st.size;
        if (!req.dryRun) fs.rmSync(p, { force: true });
      }
    }
  }
  return { dryRun: req.dryRun, jobs, incoming, blobs, freedBytes };
}
