// Dispatch overhead of the worker, through the real bundle and real processes.
//   npx tsx bench/dispatch.ts
// Prints: submit-to-running latency (median of 20: from spawning `control submit` to
// the receipt's startedAt), and the wall time of a trivial recipe through the whole
// path (submit → queued → admitted → supervisor → recipe → verified manifest →
// terminal receipt; to endedAt) divided by running the same recipe directly, and by
// `python -c pass`.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fixtureEnv, makeHome, readReceiptFile, TEST_ENVS_DIR, waitFor } from "../worker/testing/harness";

const N = 20;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const env = await fixtureEnv();
  const w = await makeHome({ capacity: { cpus: 2, ramGb: 4 } });
  const latency: number[] = [];
  const whole: number[] = [];
  try {
    for (let i = 0; i < N + 2; i++) {
      const t0 = Date.now();
      const r = await w.control({
        op: "submit", opId: `bench-${i}`, intentHash: "b", recipe: "trivial", job: "pass", environmentId: env,
        input: {}, resources: { cpus: 1, ramGb: 0.1 }, deadlineSeconds: 60,
      });
      if (!r.ok) throw new Error(JSON.stringify(r.error));
      const done = await waitFor("terminal", () => {
        const x = readReceiptFile(w.home, r.receipt.jobId);
        return x && x.endedAt ? x : null;
      }, 30_000, 5);
      if (done.state !== "succeeded") throw new Error(`bench job ${done.jobId} ended ${done.state}/${done.reason}`);
      if (i < 2) continue; // warm-up: page cache, pyc files
      latency.push(Date.parse(done.startedAt!) - t0);
      whole.push(Date.parse(done.endedAt!) - t0);
    }
    const py = path.join(TEST_ENVS_DIR, env, "venv", "bin", "python");
    const out = fs.mkdtempSync(path.join(w.home, "direct-"));
    const direct: number[] = [];
    const bare: number[] = [];
    const trainingDir = path.resolve("worker/test-fixtures/training");
    for (let i = 0; i < N; i++) {
      let t = process.hrtime.bigint();
      spawnSync(py, ["-m", "recipes.trivial", "pass", "--input", "x"], { env: { ...process.env, PYTHONPATH: trainingDir, TRAINYARD_OUTPUT_DIR: out } });
      direct.push(Number(process.hrtime.bigint() - t) / 1e6);
      t = process.hrtime.bigint();
      spawnSync(py, ["-c", "pass"]);
      bare.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    const m = { latency: median(latency), whole: median(whole), direct: median(direct), bare: median(bare) };
    console.log(`submit-to-running latency: median ${m.latency} ms (n=${N}; min ${Math.min(...latency)}, max ${Math.max(...latency)})`);
    console.log(`trivial recipe through the whole path: median ${m.whole} ms`);
    console.log(`same recipe run directly: median ${m.direct.toFixed(1)} ms  -> ratio ${(m.whole / m.direct).toFixed(1)}x`);
    console.log(`python -c pass directly:  median ${m.bare.toFixed(1)} ms  -> ratio ${(m.whole / m.bare).toFixed(1)}x`);
  } finally {
    w.cleanup();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
