/**
 * What became of a started run, once: when its experiment (or its search's final
 * experiment) ended, the run keeps its result in words and the owner is told if it is
 * worth it — it beat the incumbent (or nothing is selected yet), or it failed or ran out
 * of time. Quiet otherwise (a no-op, a run someone cancelled, a run that did not beat it). The notification ids name the run, so a restart tells no one twice.
 */
import { ZExperimentResults } from "@/server/experiments/chain-results";
import { parseFineTuneResults } from "@/server/experiments/pipelines/lora-results";
import { experimentLifecycle, searchLifecycle } from "@/contracts/lifecycles";
import { ZScheduleSpec } from "@/contracts/schedules/schedules";
import type { Db } from "@/server/db/client";
import { parseStoredJson } from "@/server/db/stored-json";
import { notify } from "@/server/notifications/notify";
import { verdictAgainstIncumbent } from "./incumbent";
import { schedulesRepository, type RunRow, type ScheduleRow } from "./schedules.repository";

export type RunActivity = "running" | "ended";

/** Whether a started run still trains, and, once it ended, writes its result (once). */
export async function followRun(db: Db, s: ScheduleRow, run: RunRow): Promise<RunActivity> {
  if (run.result !== null) return "ended";
  const repo = schedulesRepository(db);
  let experimentId = run.experimentId;
  if (run.searchId) {
    const search = await repo.search(run.searchId);
    if (!search) return finish(db, s, run, { words: `Run ${run.seq}: its search was deleted.`, kind: null });
    if (!searchLifecycle.isTerminal(search.status)) return "running";
    if (search.status === "failed" || !search.finalExperimentId) return finish(db, s, run, { words: `Run ${run.seq}: the search ${search.status}${search.reason ? ` (${search.reason})` : ""}.`, kind: "run_failed" });
    experimentId = search.finalExperimentId;
  }
  const exp = experimentId ? await repo.experiment(experimentId) : null;
  if (!exp) return finish(db, s, run, { words: `Run ${run.seq}: its experiment was deleted.`, kind: null });
  if (!experimentLifecycle.isTerminal(exp.status)) return "running";
  if (exp.status !== "succeeded") {
    // A run someone cancelled is their own doing: recorded, not announced.
    const kind = exp.status === "cancelled" ? null : "run_failed";
    return finish(db, s, run, { words: `Run ${run.seq} ${exp.status.replace("_", " ")}${exp.reason ? `: ${exp.reason}` : ""}.`, kind });
  }
  if (exp.kind === "finetune") {
    const receipt = parseFineTuneResults(exp.results)?.receipt;
    if (!receipt) return finish(db, s, run, { words: `Run ${run.seq} succeeded without a receipt.`, kind: "run_failed" });
    const loss = `answer-token loss ${receipt.base.meanNll.toPrecision(4)} (base) → ${receipt.adapter.meanNll.toPrecision(4)} (adapter)`;
    // Fine-tunes are not ranked against a registered adapter here: told when the adapter beat its base.
    return finish(db, s, run, { words: `Run ${run.seq}: ${loss}${receipt.betterThanBase ? " — register?" : ", not better than its base."}`, kind: receipt.betterThanBase ? "run_beat_incumbent" : null });
  }
  const results = parseStoredJson(ZExperimentResults, exp.results);
  const spec = ZScheduleSpec.parse(JSON.parse(s.spec));
  if (!results || spec.mode === "finetune") return finish(db, s, run, { words: `Run ${run.seq} succeeded without results.`, kind: "run_failed" });
  const v = await verdictAgainstIncumbent(db, s.projectId, spec.target, run.seq, results);
  return finish(db, s, run, { words: v.words, kind: v.beat ? "run_beat_incumbent" : null });
}

async function finish(db: Db, s: ScheduleRow, run: RunRow, r: { words: string; kind: "run_beat_incumbent" | "run_failed" | null }): Promise<RunActivity> {
  await schedulesRepository(db).updateRun(run.id, { result: r.words });
  if (r.kind) {
    await notify(db, {
      id: `schedule-run:${run.id}:${r.kind === "run_failed" ? "failed" : "beat"}`,
      kind: r.kind,
      projectId: s.projectId,
      title: r.kind === "run_failed" ? `Schedule "${s.name}": run ${run.seq} failed` : `Schedule "${s.name}": run ${run.seq} is worth a look`,
      body: r.words,
      link: run.experimentId ? `/projects/${s.projectId}/ml/experiments/${run.experimentId}` : `/projects/${s.projectId}/ml/schedules`,
    });
  }
  return "ended";
}
