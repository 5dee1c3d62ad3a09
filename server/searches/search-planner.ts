// The planner of a search: one `search.suggest` job per trial number on the search's
// computer, given every trial so far (those still booked or running as `running`).
import { ZSuggestion, ZTrialParams, type SuggestJobInput, type TrialParams } from "@/contracts/recipes";
import type { SearchSpec } from "@/contracts/searches/search-spec";
import type { Db } from "@/server/db/client";
import { experimentsRepository } from "@/server/experiments/experiments.repository";
import { ensureEnvironment } from "@/server/jobs/environments";
import { isActive as isJobActive } from "@/server/jobs/job-state";
import { jobsService } from "@/server/jobs/jobs.service";
import { readOutput } from "@/server/jobs/read-output";
import { suggestOpId } from "./search-ids";
import { ACTIVE_TRIAL_STATES } from "./search-store";
import type { SearchRow, TrialRow } from "./searches.repository";

/**
 * The planner's history: every earlier trial that ran, with its validation score, and those
 * still booked or running beside the one asked for (`running`: the planner keeps away from them).
 */
function historyOf(trials: TrialRow[]): SuggestJobInput["history"] {
  return trials
    .filter((t) => ["succeeded", "failed", "timed_out"].includes(t.status) || ACTIVE_TRIAL_STATES.has(t.status))
    .map((t) => ({
      params: ZTrialParams.parse(JSON.parse(t.params)),
      value: t.status === "succeeded" ? t.validationValue : null,
      state: ACTIVE_TRIAL_STATES.has(t.status) ? ("running" as const) : t.status === "succeeded" && t.validationValue !== null ? ("complete" as const) : ("failed" as const),
    }));
}

/** Asks the planner (a `search.suggest` job on the search's computer) for trial n's settings; null while it runs. */
export async function plannedParams(db: Db, s: SearchRow, spec: SearchSpec, n: number, trials: TrialRow[]): Promise<{ params: TrialParams; sampler: "random" | "tpe" } | { failed: string } | null> {
  const opId = suggestOpId(s.id, n);
  const [job] = await experimentsRepository(db).jobsByOpIds([opId]);
  if (!job) {
    const env = await ensureEnvironment(s.targetId, "search", db);
    if (!env.ready) return null;
    const input: SuggestJobInput = { space: spec.space, direction: spec.objective.direction, seed: (spec.seed + n) % 2 ** 31, startupTrials: 3, history: historyOf(trials) };
    await jobsService(db).admitJob({ opId, targetId: s.targetId, recipe: "search", job: "suggest", input, resources: { cpus: 1, ramGb: 1 }, deadlineSeconds: 120 });
    return null;
  }
  if (isJobActive(job.state)) return null;
  if (job.state !== "succeeded") return { failed: `the planner's job ${job.id} ${job.state}${job.detail ? `: ${job.detail}` : ""}` };
  const suggestion = await readOutput(db, job, "suggestion.json", ZSuggestion);
  return { params: suggestion.params, sampler: suggestion.sampler };
}
