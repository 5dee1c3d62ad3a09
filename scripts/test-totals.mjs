// Adds up the results of every tier into the closing line "N passed, N failed, N skipped".
// Test runners report their own counts (vitest JSON, JUnit XML from pytest and the
// fresh-clone tier, Playwright JSON);
// checks without a count (typecheck, lint, builds) count as one test each. A tier that
// exited non-zero without any failed test in its report (it crashed) counts one failure.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const [resultsDir, namesArg, statusArg] = process.argv.slice(2);
const names = namesArg.split(" ");
const statuses = statusArg.split(" ").map(Number);
const counts = { passed: 0, failed: 0, skipped: 0 };
const perTier = [];

function vitest(file) {
  const r = JSON.parse(readFileSync(file, "utf8"));
  return { passed: r.numPassedTests, failed: r.numFailedTests, skipped: r.numPendingTests + r.numTodoTests };
}
function junit(file) {
  const xml = readFileSync(file, "utf8");
  const attr = (n) => [...xml.matchAll(new RegExp(`<testsuite [^>]*\\b${n}="(\\d+)"`, "g"))].reduce((s, m) => s + Number(m[1]), 0);
  const total = attr("tests");
  const failed = attr("failures") + attr("errors");
  const skipped = attr("skipped");
  return { passed: total - failed - skipped, failed, skipped };
}
function playwright(file) {
  const r = JSON.parse(readFileSync(file, "utf8"));
  const s = r.stats ?? {};
  return { passed: (s.expected ?? 0) + (s.flaky ?? 0), failed: s.unexpected ?? 0, skipped: s.skipped ?? 0 };
}
const reports = {
  unit: [path.join(resultsDir, "unit.json"), vitest],
  integration: [path.join(resultsDir, "integration.json"), vitest],
  pytest: [path.join(resultsDir, "pytest.xml"), junit],
  "fresh-clone": [path.join(resultsDir, "fresh-clone.xml"), junit],
  e2e: [path.join(resultsDir, "e2e.json"), playwright],
};

names.forEach((name, i) => {
  const code = statuses[i];
  let c = { passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1, skipped: 0 };
  const report = reports[name];
  if (report && existsSync(report[0])) {
    try {
      c = report[1](report[0]);
      if (code !== 0 && c.failed === 0) c.failed = 1;
    } catch {
      // unreadable report: keep the exit-code count
    }
  }
  perTier.push(`${name}: ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped`);
  counts.passed += c.passed;
  counts.failed += c.failed;
  counts.skipped += c.skipped;
});

console.log("\n=== totals by tier ===");
for (const line of perTier) console.log(line);
console.log(`${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
process.exit(counts.failed > 0 ? 1 : 0);
