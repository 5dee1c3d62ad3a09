#!/usr/bin/env node
// Sums the jobs a test run recorded (TRAINYARD_TEST_JOB_TIMES=FILE, server/testing/job-times.ts):
//   node scripts/job-times.mjs FILE
// per recipe job (count, seconds running, mean, seconds queued) and per test file.
import { readFileSync } from "node:fs";
import path from "node:path";

const file = process.argv[2];
if (!file) {
  console.error("usage: node scripts/job-times.mjs FILE");
  process.exit(2);
}
const rows = readFileSync(file, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
const at = (v) => (v == null ? null : typeof v === "number" ? v : Date.parse(v));
const seconds = (from, to) => (from !== null && to !== null ? Math.max(0, (to - from) / 1000) : 0);
const byJob = new Map();
const byFile = new Map();
for (const r of rows) {
  const run = seconds(at(r.startedAt), at(r.endedAt));
  const queued = seconds(at(r.createdAt), at(r.startedAt));
  const job = byJob.get(`${r.recipe}.${r.jobName}`) ?? { n: 0, run: 0, queued: 0 };
  Object.assign(job, { n: job.n + 1, run: job.run + run, queued: job.queued + queued });
  byJob.set(`${r.recipe}.${r.jobName}`, job);
  const name = r.file ? path.relative(process.cwd(), r.file) : "(unknown file)";
  const f = byFile.get(name) ?? { n: 0, run: 0 };
  Object.assign(f, { n: f.n + 1, run: f.run + run });
  byFile.set(name, f);
}
const sorted = (m) => [...m].sort((a, b) => b[1].run - a[1].run);
console.log("job\tcount\trunning s\tmean s\tqueued s");
for (const [k, j] of sorted(byJob)) console.log(`${k}\t${j.n}\t${j.run.toFixed(0)}\t${(j.run / j.n).toFixed(1)}\t${j.queued.toFixed(0)}`);
console.log("\ntest file\tjobs\trunning s");
for (const [k, f] of sorted(byFile)) console.log(`${k}\t${f.n}\t${f.run.toFixed(0)}`);
