// Warm start against cold, in one run, through the real worker bundle and a real recipe
// (data.profile on penguins: pandas, numpy and pyarrow to import). Two homes, one with
// warm start off; the same jobs in each, alternating. Prints per mode the median of
//   submit → the recipe's first event (interpreter, imports, the recipe's own start), and
//   submit → terminal receipt (the whole job),
// and the ratios warm ÷ cold. Goal (issue 29): submit → first event ≤ 150 ms warm.
//   npx tsx bench/warm.ts [N]
import fs from "node:fs";
import path from "node:path";
import { importAndWait, makeHome, readReceiptFile, REPO, waitFor, waitForJob, type WorkerHome } from "../worker/testing/harness";

const N = Number(process.argv[2] ?? 15);
const PENGUINS = path.join(REPO, "tests", "fixtures", "tabular", "penguins.csv");
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function home(warm: boolean): Promise<{ w: WorkerHome; dataset: string; env: string }> {
  const w = await makeHome({ trainingDir: path.join(REPO, "training"), allowedRoots: [path.dirname(PENGUINS)], capacity: { cpus: 2, ramGb: 4 }, warm: { enabled: warm, idleSeconds: 120 } });
  const { receipt } = await importAndWait(w, PENGUINS);
  const prep = await w.control({ op: "prepare", opId: `bench-prep-${warm}`, recipe: "data" });
  if (!prep.ok) throw new Error(JSON.stringify(prep.error));
  if (!prep.ready) await waitForJob(w, prep.jobId, undefined, 900_000);
  return { w, dataset: `sha256:${receipt!.outputSha256}`, env: prep.environmentId };
}

let op = 0;
async function once(h: { w: WorkerHome; dataset: string; env: string }): Promise<{ firstEvent: number; whole: number; launch: string | null }> {
  const t0 = Date.now();
  const r = await h.w.control({
    op: "submit", opId: `bench-warm-${++op}`, intentHash: "b", recipe: "data", job: "profile", environmentId: h.env,
    input: { dataset: h.dataset, fileName: "penguins.csv" }, resources: { cpus: 1, ramGb: 1 }, deadlineSeconds: 120,
  });
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  const events = path.join(h.w.home, "jobs", r.receipt.jobId, "events.jsonl");
  await waitFor("the first event", () => fs.existsSync(events) && fs.statSync(events).size > 0, 60_000, 2);
  const firstEvent = Date.now() - t0;
  const done = await waitFor("terminal", () => {
    const x = readReceiptFile(h.w.home, r.receipt.jobId);
    return x && x.endedAt ? x : null;
  }, 60_000, 5);
  if (done.state !== "succeeded") throw new Error(`${done.jobId} ended ${done.state}/${done.reason}`);
  return { firstEvent, whole: Date.parse(done.endedAt!) - t0, launch: done.launch };
}

async function main() {
  const cold = await home(false);
  const warm = await home(true);
  try {
    await once(cold);
    await once(warm); // starts the runner
    await waitFor("the warm runner", async () => (await once(warm)).launch === "warm", 60_000, 200);
    const runs = { cold: [] as Array<{ firstEvent: number; whole: number }>, warm: [] as Array<{ firstEvent: number; whole: number }> };
    for (let i = 0; i < N; i++) {
      runs.cold.push(await once(cold));
      const w = await once(warm);
      if (w.launch !== "warm") throw new Error("a job of the warm home started cold");
      runs.warm.push(w);
    }
    const m = (k: "cold" | "warm", f: "firstEvent" | "whole") => median(runs[k].map((x) => x[f]));
    console.log(`data.profile on penguins, n=${N} each, alternating`);
    console.log(`submit → first event: warm ${m("warm", "firstEvent")} ms, cold ${m("cold", "firstEvent")} ms  -> warm/cold ${(m("warm", "firstEvent") / m("cold", "firstEvent")).toFixed(2)}`);
    console.log(`submit → job ended:   warm ${m("warm", "whole")} ms, cold ${m("cold", "whole")} ms  -> warm/cold ${(m("warm", "whole") / m("cold", "whole")).toFixed(2)}`);
  } finally {
    cold.w.cleanup();
    warm.w.cleanup();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
