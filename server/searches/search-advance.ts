/**
 * Moves one search forward (issue 17): settles its trials from their experiments, books
 * and starts the next trials, as many at once as its budget allows (an accepted agent
 * proposal first, else the planner's suggestion: search-planner.ts), and ends with one
 * final scoring on test. Idempotent and restart-safe: a
 * trial is a ledger row numbered per search and its experiment's operation id is derived
 * from that number, the planner's job from the number it plans (search-ids.ts), so running this twice,
 * or again after a crash, never books or starts anything twice.
 */
import { createHash } from "node:crypto";
import type { TrialState } from "@/contracts/lifecycles";
import { ZProposer, ZSearchSpec, type SearchSpec } from "@/contracts/searches/search-spec";
import { ZTrialParams, type TrialParams } from "@/contracts/recipes";
import { droppedColumns, hyperparametersOf } from "@/contracts/searches/tabular-space";
import { isExperimentTerminal } from "@/server/experiments/experiment-state";
import { createAndAdvance, experimentsService } from "@/server/experiments/experiments.service";
import type { TExperimentSettings } from "@/server/experiments/experiments.schema";
import { ZTrialResults, type TrialSettings } from "@/server/experiments/pipelines/tabular-trial";
import { parseStoredJson } from "@/server/db/stored-json";
import { ensureEnvironment } from "@/server/jobs/environments";
import { targetsService } from "@/server/targets/targets.service";
import { publish } from "@/server/events/bus";
import type { Db } from "@/server/db/client";
import { finalReserveSeconds, gain, longestTrialSeconds, nextReservation, STOP_WORDS, stopReason, wallUsedSeconds } from "./search-budget";
import { chooseOutcome, ZSearchOutcome } from "./search-outcome";
import { finalOpId, trialOpId } from "./search-ids";
import { plannedParams } from "./search-planner";
import { arrayMember, heldIn, nextRound, openRound, roundOf, trialSeconds, type Round } from "./search-rounds";
import { ACTIVE_TRIAL_STATES, moveSearch, moveTrial } from "./search-store";
import { searchesRepository, type SearchRow, type TrialRow } from "./searches.repository";

/** A trial ends the way its experiment did. */
const TRIAL_ENDING: Partial<Record<string, TrialState>> = { failed: "failed", cancelled: "cancelled", timed_out: "timed_out" };
const hash = (v: unknown) => createHash("sha256").update(JSON.stringify(v)).digest("hex");

export const specOf = (s: SearchRow): SearchSpec => ZSearchSpec.parse(JSON.parse(s.spec));

/** The tabular settings every experiment of the search trains and scores with. */
export function experimentSettings(spec: SearchSpec, budgetSeconds: number, params: TrialParams | null): TExperimentSettings {
  return {
    target: spec.target,
    task: spec.task,
    metric: spec.objective.metric,
    positiveClass: spec.positiveClass,
    excludeColumns: params ? [...spec.excludeColumns, ...droppedColumns(spec.featureOptions, params)] : spec.excludeColumns,
    split: spec.split,
    mode: "quick",
    maxMinutes: budgetSeconds / 60,
    maxTrials: 1,
    seed: spec.seed,
    appliedActions: [],
    dataIssues: [],
    ...(params ? { hyperparameters: hyperparametersOf(params) } : {}),
  };
}

function changed(s: SearchRow) {
  publish({ type: "search.changed", searchId: s.id, projectId: s.projectId });
}

/**
 * Follows a booked trial's experiment; returns whether the trial is still active. A trial of
 * a round still being planned waits to start with the rest of its round (`held`).
 */
async function settleTrial(db: Db, s: SearchRow, spec: SearchSpec, t: TrialRow, trials: TrialRow[], held: Round | null = null): Promise<boolean> {
  const repo = searchesRepository(db);
  if (!t.experimentId) {
    if (held && roundOf(t)?.first === held.first) return true;
    const exp = await startTrialExperiment(db, s, spec, t, trials);
    await repo.linkExperiment(t.id, exp.id);
    if (t.status === "reserved") await moveTrial(db, t, s, "running", { reason: "its experiment started", experimentId: exp.id });
    return true;
  }
  const exp = await repo.experiment(t.experimentId);
  if (!exp) {
    await moveTrial(db, t, s, "failed", { reason: "its experiment was deleted", endedAt: new Date() });
    return false;
  }
  if (s.status === "stopping" && !isExperimentTerminal(exp.status) && !exp.cancelRequestedAt) await experimentsService(db).cancel(exp.id);
  if (!isExperimentTerminal(exp.status)) {
    if (exp.status === "unknown" && t.status === "running") await moveTrial(db, t, s, "unknown", { reason: exp.reason ?? "its computer does not answer" });
    else if (exp.status === "running" && t.status !== "running") await moveTrial(db, t, s, "running", { reason: "its computer answers again" });
    return true;
  }
  const ended = exp.endedAt ?? new Date();
  const used = await trialSeconds(db, t, exp, ended);
  const from = t.status === "reserved" ? { ...t, status: "running" } : t;
  if (t.status === "reserved") await moveTrial(db, t, s, "running", { reason: "its experiment started" });
  if (exp.status === "succeeded") {
    const results = parseStoredJson(ZTrialResults, exp.results);
    await moveTrial(db, from, s, "succeeded", { reason: null, usedSeconds: used, validationValue: results?.validation.primaryValue ?? null, endedAt: ended });
  } else {
    await moveTrial(db, from, s, TRIAL_ENDING[exp.status] ?? "failed", { reason: exp.reason, usedSeconds: used, endedAt: ended });
  }
  changed(s);
  return false;
}

async function startTrialExperiment(db: Db, s: SearchRow, spec: SearchSpec, t: TrialRow, trials: TrialRow[]) {
  const target = await targetsService(db).get(s.targetId);
  const params = ZTrialParams.parse(JSON.parse(t.params));
  const settings: TrialSettings = {
    experiment: experimentSettings(spec, t.reservedSeconds, params),
    searchId: s.id,
    number: t.number,
    dataExcludeColumns: spec.excludeColumns,
    parallelTrials: spec.budget.parallelTrials,
    slurmArray: arrayMember(s.id, t, trials, spec.budget.parallelTrials),
  };
  return createAndAdvance(db, {
    projectId: s.projectId,
    opId: trialOpId(s.id, t.number),
    intentHash: hash(settings),
    name: `${s.name} — trial ${t.number}`,
    targetId: s.targetId,
    targetRevision: target.revision,
    workerId: target.workerId,
    datasetId: s.datasetId,
    snapshotSha256: s.snapshotSha256,
    settings: JSON.stringify(settings),
    budgetSeconds: Math.round(t.reservedSeconds),
    kind: "search_trial",
  }, s.createdAt);
}

/** Books the next trial: the oldest accepted proposal, else the planner's (in `round` when given). Returns whether one was booked. */
async function bookNextTrial(db: Db, s: SearchRow, spec: SearchSpec, trials: TrialRow[], reserve: number, round: Round | null): Promise<"booked" | "waiting" | { failed: string }> {
  const repo = searchesRepository(db);
  const proposal = trials.find((t) => t.status === "proposed");
  if (proposal) {
    await moveTrial(db, proposal, s, "reserved", { reason: `booked ${reserve} s of the budget`, reservedSeconds: reserve, reservedAt: new Date() });
    return "booked";
  }
  if (spec.strategy === "agents") return "waiting";
  const n = await repo.nextNumber(s.id);
  const planned = await plannedParams(db, s, spec, n, trials);
  if (!planned) return "waiting";
  if ("failed" in planned) return planned;
  try {
    await repo.addTrial({
      searchId: s.id,
      number: n,
      status: "reserved",
      proposer: JSON.stringify(ZProposer.parse({ kind: "planner", sampler: planned.sampler, ...(round ? { round } : {}) })),
      params: JSON.stringify(planned.params),
      reservedSeconds: reserve,
      reservedAt: new Date(),
    });
  } catch (err) {
    // Another pass booked trial n first (unique search + number): nothing is booked twice.
    if ((await repo.trials(s.id)).some((t) => t.number === n)) return "booked";
    throw err;
  }
  return "booked";
}

async function finalize(db: Db, s: SearchRow, spec: SearchSpec, trials: TrialRow[], why: string): Promise<void> {
  const repo = searchesRepository(db);
  if (s.status !== "finalizing") {
    await moveSearch(db, s, "finalizing", { reason: why });
    return;
  }
  if (!s.finalExperimentId) {
    const outcome = await chooseOutcome(db, spec, trials, why);
    const used = wallUsedSeconds(s, new Date());
    const budgetSeconds = Math.max(60, Math.round(spec.budget.maxWallMinutes * 60 - used), Math.round(finalReserveSeconds(spec, longestTrialSeconds(trials))));
    const exp =
      outcome.kind === "candidate"
        ? await startFinalModel(db, s, spec, outcome.trialNumber, budgetSeconds, trials)
        : await startBaselineScoring(db, s, spec, budgetSeconds);
    await repo.setFinal(s.id, exp.id, JSON.stringify(outcome));
    changed(s);
    return;
  }
  const exp = await repo.experiment(s.finalExperimentId);
  if (exp && !isExperimentTerminal(exp.status)) return;
  const now = new Date();
  const fields = { wallUsedSeconds: wallUsedSeconds(s, now), runningSince: null, endedAt: now };
  if (exp?.status === "succeeded") await moveSearch(db, s, "completed", { ...fields, reason: s.reason });
  else await moveSearch(db, s, "failed", { ...fields, reason: `the final scoring on test ${exp?.status ?? "was deleted"}${exp?.reason ? `: ${exp.reason}` : ""}; the trials and their validation scores stand` });
  changed(s);
}

async function startFinalModel(db: Db, s: SearchRow, spec: SearchSpec, trialNumber: number, budgetSeconds: number, trials: TrialRow[]) {
  const trial = trials.find((t) => t.number === trialNumber)!;
  const params = ZTrialParams.parse(JSON.parse(trial.params));
  const view = await experimentsService(db).start({
    opId: finalOpId(s.id),
    projectId: s.projectId,
    datasetId: s.datasetId,
    targetId: s.targetId,
    name: `${s.name} — chosen: trial ${trialNumber}`,
    settings: { ...experimentSettings(spec, budgetSeconds, params), reuseTrainOpId: `${trialOpId(s.id, trialNumber)}:train` },
  }, s.createdAt);
  return { id: view.id };
}

async function startBaselineScoring(db: Db, s: SearchRow, spec: SearchSpec, budgetSeconds: number) {
  const target = await targetsService(db).get(s.targetId);
  const settings = experimentSettings(spec, budgetSeconds, null);
  return createAndAdvance(db, {
    projectId: s.projectId,
    opId: finalOpId(s.id),
    intentHash: hash(settings),
    name: `${s.name} — kept the baseline`,
    targetId: s.targetId,
    targetRevision: target.revision,
    workerId: target.workerId,
    datasetId: s.datasetId,
    snapshotSha256: s.snapshotSha256,
    settings: JSON.stringify(settings),
    budgetSeconds,
    kind: "search_baseline",
  }, s.createdAt);
}

/** Every recipe a search runs, in order of use. */
const SEARCH_RECIPES = ["search", "data", "tabular", "evaluation", "export"] as const;

/** Whether the computer has every recipe's environment; starts building the missing ones. */
async function toolsReady(db: Db, targetId: string): Promise<boolean> {
  let ready = true;
  for (const recipe of SEARCH_RECIPES) ready = (await ensureEnvironment(targetId, recipe, db)).ready && ready;
  return ready;
}

export async function advanceSearch(db: Db, id: string): Promise<void> {
  const repo = searchesRepository(db);
  const s = await repo.find(id);
  if (!s || s.status === "completed" || s.status === "failed") return;
  const spec = specOf(s);
  const trials = await repo.trials(s.id);
  if (s.status === "finalizing") return finalize(db, s, spec, trials, s.reason ?? "");

  // A round still being planned starts once it is whole (or the search stops planning);
  // stopped, a round that never started has nothing to run.
  const planning = openRound(trials);
  if (s.status === "stopping") {
    for (const t of heldIn(trials, planning)) await moveTrial(db, t, s, "cancelled", { reason: "the search was stopped before its round of trials started", usedSeconds: 0, endedAt: new Date() });
  }
  const active = (await repo.trials(s.id)).filter((t) => ACTIVE_TRIAL_STATES.has(t.status));
  let stillActive = 0;
  for (const t of active) if (await settleTrial(db, s, spec, t, trials, planning)) stillActive++;
  const now = await repo.trials(s.id);
  // Stopped or out of budget, a search waits for every trial it started before its final scoring.
  if (s.status === "stopping") return stillActive ? undefined : finalize(db, s, spec, now, "stopped by the user");
  if (s.status === "paused") return;

  const booked = now.filter((t) => t.reservedAt !== null).length;
  if (!s.runningSince) {
    // First use of a computer builds the recipes' environments (minutes for AutoGluon):
    // setup, not search time, so the clock starts once they are ready.
    if (booked === 0 && !(await toolsReady(db, s.targetId))) return;
    await repo.startClock(s.id);
    return advanceSearch(db, s.id);
  }
  const used = wallUsedSeconds(s, new Date());
  const finished = now.filter((t) => ["succeeded", "failed", "timed_out"].includes(t.status)).map((t) => ({ value: t.status === "succeeded" ? t.validationValue : null }));
  const longest = longestTrialSeconds(now);
  const stop = stopReason(spec, booked, finished, used, longest);
  if (stop) {
    // No more trials can be booked: a round that was being planned starts with what it has.
    if (await startHeld(db, s, spec, now, planning)) return;
    return stillActive ? undefined : finalize(db, s, spec, now, STOP_WORDS[stop]);
  }
  const round = planning ?? (await nextRound(db, s, spec, booked, used, longest, stillActive));
  if (!round && stillActive >= spec.budget.parallelTrials) return;
  if (round === "wait") return;
  const reserve = nextReservation(spec, used, longest)!;
  const booking = await bookNextTrial(db, s, spec, now, reserve, round);
  if (typeof booking === "object") {
    // The planner failed: no trial can be booked. Trials running beside finish (and are
    // recorded) before the search ends with why; a round being planned starts with what it has.
    if (await startHeld(db, s, spec, now, planning)) return;
    if (stillActive) return;
    await moveSearch(db, s, "failed", { reason: booking.failed, wallUsedSeconds: used, runningSince: null, endedAt: new Date() });
    changed(s);
    return;
  }
  if (booking === "booked") {
    changed(s);
    // Start the booked trial's experiment at once rather than on the next sweep (a round's once it is whole).
    const fresh = await repo.trials(s.id);
    const held = openRound(fresh);
    for (const t of fresh.filter((x) => x.status === "reserved")) await settleTrial(db, s, spec, t, fresh, held);
    // Room for another trial beside it, or more of the round to plan: ask the planner now (its job answers on a later pass).
    if (held || (!round && stillActive + 1 < spec.budget.parallelTrials)) return advanceSearch(db, s.id);
  }
}

/** Starts the trials of a round that will not be planned further; whether it had any waiting to start. */
async function startHeld(db: Db, s: SearchRow, spec: SearchSpec, trials: TrialRow[], round: Round | null): Promise<boolean> {
  const held = heldIn(trials, round);
  for (const t of held) await settleTrial(db, s, spec, t, trials);
  if (held.length) changed(s);
  return held.length > 0;
}

export { gain, ZSearchOutcome };
