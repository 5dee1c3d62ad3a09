// What Trainyard adds to a Slurm job's start, on a real single-node cluster started here
// (server/testing/slurm-cluster.ts; run as root with slurm-wlm and munge installed).
//   npx tsx bench/slurm.ts
// Prints, in one run: submit → running through the worker of a Slurm computer (from
// spawning `control submit` to the receipt's startedAt, which the job's supervisor writes
// on the node) and through a bare `sbatch --wrap` of a command that records its start, each
// the median of N on an idle cluster, and what Trainyard adds (goal: ≤ 1 s).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startSlurmCluster } from "../server/testing/slurm-cluster";
import { fixtureEnv, makeHome, readReceiptFile, waitFor } from "../worker/testing/harness";

const N = 10;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const cluster = await startSlurmCluster();
  const env = await fixtureEnv();
  const w = await makeHome({ slurm: { partition: cluster.partition, slurmConf: cluster.conf } });
  // No job listed, the node idle again, and a second for the controller to settle: the same start for both.
  const idle = async () => {
    await waitFor("an idle cluster", () => (cluster.run("squeue", ["-h"]).trim() === "" && cluster.run("sinfo", ["-h", "-o", "%T"]).trim() === "idle" ? true : null), 60_000, 50);
    await new Promise((r) => setTimeout(r, 1000));
  };
  const viaWorker: number[] = [];
  const bare: number[] = [];
  try {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "slurm-bench-"));
    // Alternated, so that both meet the scheduler in the same state (an idle node, its last job cleaned up).
    for (let i = 0; i < N + 1; i++) {
      await idle();
      const t0 = Date.now();
      const r = await w.control({
        op: "submit", opId: `bench-${i}`, intentHash: "b", recipe: "trivial", job: "pass", environmentId: env,
        input: {}, resources: { cpus: 1, ramGb: 0.1 }, deadlineSeconds: 60,
      });
      if (!r.ok) throw new Error(JSON.stringify(r.error));
      const started = await waitFor("running", () => readReceiptFile(w.home, r.receipt.jobId)?.startedAt ?? null, 60_000, 5);
      const done = await waitFor("terminal", () => { const x = readReceiptFile(w.home, r.receipt.jobId); return x?.endedAt ? x : null; }, 60_000, 20);
      if (done.state !== "succeeded") throw new Error(`bench job ${done.jobId} ended ${done.state}/${done.reason}: ${done.detail}`);

      await idle();
      const mark = path.join(dir, `start-${i}`);
      const t1 = Date.now();
      const b = spawnSync("sbatch", ["--parsable", `--partition=${cluster.partition}`, "--cpus-per-task=1", "--mem=103M", "--time=3", "--nodes=1", "--no-requeue", "--output=/dev/null", `--chdir=${dir}`, "--wrap", `date +%s%3N > ${mark}`], { env: { ...process.env, SLURM_CONF: cluster.conf }, encoding: "utf8" });
      if (b.status !== 0) throw new Error(b.stderr);
      const at = await waitFor("the bare job to start", () => (fs.existsSync(mark) && fs.readFileSync(mark, "utf8").trim() ? Number(fs.readFileSync(mark, "utf8")) : null), 60_000, 5);
      if (i === 0) continue; // the first of each: page cache
      viaWorker.push(Date.parse(started) - t0);
      bare.push(at - t1);
    }
    const m = { worker: median(viaWorker), bare: median(bare) };
    console.log(`load average: ${os.loadavg().map((x) => x.toFixed(2)).join(" ")}`);
    console.log(`submit → running through Trainyard's worker: median ${m.worker} ms (n=${viaWorker.length}; min ${Math.min(...viaWorker)}, max ${Math.max(...viaWorker)})`);
    console.log(`submit → running of a bare sbatch --wrap:     median ${m.bare} ms (n=${bare.length}; min ${Math.min(...bare)}, max ${Math.max(...bare)})`);
    console.log(`Trainyard adds: ${m.worker - m.bare} ms (goal ≤ 1000 ms); ratio ${(m.worker / m.bare).toFixed(2)}`);
  } finally {
    w.cleanup();
    await cluster.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
