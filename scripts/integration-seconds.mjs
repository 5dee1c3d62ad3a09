#!/usr/bin/env node
// Refreshes tests/support/integration-seconds.json (the order vitest.config.ts starts the
// integration files in, slowest first) from the last full run's Vitest report:
//   node scripts/integration-seconds.mjs [.tmp/test-results/integration.json]
// Files of 30 s or more are kept; a file the report lacks keeps its old figure, so a new
// slow file can be entered by hand until the next full run measures it.
// The order also decides which files run side by side: a refresh that put the fine-tuning
// files together (torch beside torch on 2 CPUs) took the tier from 1,634 s to 1,838 s, so
// compare a full run with the new table before keeping it.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const reportPath = process.argv[2] ?? path.join(root, ".tmp/test-results/integration.json");
const tablePath = path.join(root, "tests/support/integration-seconds.json");
const report = JSON.parse(readFileSync(reportPath, "utf8"));
const old = JSON.parse(readFileSync(tablePath, "utf8"));
const measured = Object.fromEntries(report.testResults.map((t) => [path.relative(root, t.name), Math.round((t.endTime - t.startTime) / 1000)]));
const merged = { ...Object.fromEntries(Object.entries(old).filter(([f]) => !(f in measured))), ...measured };
const kept = Object.entries(merged).filter(([, s]) => s >= 30).sort((a, b) => b[1] - a[1]);
writeFileSync(tablePath, JSON.stringify(Object.fromEntries(kept), null, 2) + "\n");
console.log(`${kept.length} files of 30 s or more written to ${path.relative(root, tablePath)}`);
