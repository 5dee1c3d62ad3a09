/**
 * Searches (issue 17): start one with a frozen spec, read it, pause / resume / stop it,
 * and take proposals (from an agent or a person) through the same checks. Nothing here
 * spawns work directly: a proposal is a ledger row the search loop books when its turn
 * comes (search-advance.ts), within the budget that is left.
 */
import { ZSearchSpec, type SearchSpec } from "@/contracts/searches/search-spec";
import { featureOptionsFor, tabularSpaceWith } from "@/contracts/searches/tabular-space";
import { METRIC_INFO } from "@/contracts/vocabulary";
import type { Principal } from "@/server/auth/principal";
import { getDb, type Db } from "@/server/db/client";
import { badInput, conflict, isDomainError, notFound } from "@/server/errors";
import { publish } from "@/server/events/bus";
import { defaultTargetId, requireOpenProject } from "@/server/experiments/experiments.service";
import { askedComputer, placedOn } from "@/server/experiments/placement";
import { experimentsService } from "@/server/experiments/experiments.service";
import { ZExperimentSettings } from "@/server/experiments/experiments.schema";
import { profileOf, requireTrainable } from "@/server/experiments/start-readiness";
import { intentHash } from "@/server/jobs/intent-hash";
import { actorOf } from "@/server/registry/actor";
import { targetsService } from "@/server/targets/targets.service";
import { advanceSearch, experimentSettings, specOf } from "./search-advance";
import { longestTrialSeconds, nextReservation, wallUsedSeconds } from "./search-budget";
import { spaceViolations } from "./proposal-check";
import { ZProposeInput, ZStartSearchInput, type TProposeInput, type TStartSearchInput } from "./searches.schema";
import { moveSearch, moveTrial } from "./search-store";
import { searchesRepository, type SearchRow } from "./searches.repository";
import { baselineValidationValue, searchView, validationView } from "./search-views";

/** One pass of a search at a time per process (the loop, a mutation and a test may all ask). */
const RUNNING = Symbol.for("trainyard.searchAdvances");
export function scheduleSearchAdvance(db: Db, id: string, log: (l: string) => void = (l) => console.error(l)): Promise<void> {
  const g = globalThis as { [RUNNING]?: Map<string, Promise<void>> };
  const map = (g[RUNNING] ??= new Map());
  const next = (map.get(id) ?? Promise.resolve()).then(() =>
    advanceSearch(db, id).catch(async (err: unknown) => {
      const message = (err instanceof Error ? err.message : String(err)).split("\n").find((l) => l.trim()) ?? "unknown error";
      // A refusal will not change by retrying (the dataset was deleted, the target disabled): the search ends with why.
      if (isDomainError(err) && (err.code === "BAD_INPUT" || err.code === "NOT_FOUND")) {
        const s = await searchesRepository(db).find(id);
        if (s && (s.status === "running" || s.status === "paused" || s.status === "stopping" || s.status === "finalizing")) {
          const now = new Date();
          await moveSearch(db, s, "failed", { reason: message, wallUsedSeconds: wallUsedSeconds(s, now), runningSince: null, endedAt: now });
          publish({ type: "search.changed", searchId: s.id, projectId: s.projectId });
        }
        return;
      }
      log(`search ${id}: ${message}`);
    }),
  );
  map.set(id, next);
  void next.finally(() => {
    if (map.get(id) === next) map.delete(id);
  });
  return next;
}

export function searchesService(db: Db = getDb()) {
  const repo = searchesRepository(db);

  async function require(id: string, projectId?: string): Promise<SearchRow> {
    const s = await repo.find(id);
    // An id from another project reads as absent, as for an agent bound to one project.
    if (!s || (projectId !== undefined && s.projectId !== projectId)) throw notFound(`There is no search with id ${id} in this project.`);
    return s;
  }

  async function get(id: string, projectId?: string) {
    const s = await require(id, projectId);
    return searchView(db, s, await repo.trials(s.id));
  }

  function changed(s: SearchRow) {
    publish({ type: "search.changed", searchId: s.id, projectId: s.projectId });
    void scheduleSearchAdvance(db, s.id);
  }

  async function start(raw: TStartSearchInput, principal: Principal) {
    const input = ZStartSearchInput.parse(raw);
    const fallback = () => defaultTargetId(db, input.projectId);
    const asked = await askedComputer(input.targetId, fallback);
    const { opId, name, ...intent } = input;
    const hash = intentHash({ ...intent, targetId: asked });
    const existing = await repo.findByOpId(opId);
    if (existing) {
      if (existing.intentHash !== hash) throw conflict(`Operation ${opId} already started a different search.`);
      return get(existing.id);
    }
    await requireOpenProject(db, input.projectId);
    const dataset = await repo.dataset(input.datasetId);
    if (!dataset || dataset.projectId !== input.projectId) throw notFound(`This project has no dataset ${input.datasetId}.`);
    if (dataset.kind !== "table") throw badInput(`"${dataset.name}" is a file of examples; a search trains on a table.`);
    if (dataset.status === "failed") throw badInput(`The dataset "${dataset.name}" could not be read; choose another file.`);
    const columns = new Set(profileOf(dataset).columns.map((c) => c.name));
    const optionProblems = input.featureOptions.flatMap((c) =>
      !columns.has(c) ? [`There is no column "${c}" to leave out.`] : c === input.target || input.excludeColumns.includes(c) ? [`"${c}" is the target or already left out; it cannot be a feature option.`] : [],
    );
    if (optionProblems.length) throw badInput(optionProblems.join(" "), { code: "invalid_feature_option" });
    const featureOptions = featureOptionsFor([...new Set(input.featureOptions)]);
    const spec: SearchSpec = ZSearchSpec.parse({
      objective: { metric: input.metric, direction: METRIC_INFO[input.metric].direction, minUsefulGain: input.minUsefulGain },
      target: input.target,
      task: input.task,
      positiveClass: input.positiveClass,
      excludeColumns: input.excludeColumns,
      split: input.split,
      seed: input.seed,
      space: tabularSpaceWith(featureOptions),
      featureOptions,
      budget: input.budget,
      patience: input.patience,
      strategy: input.strategy,
    });
    // The same checks as a single experiment: hopeless setups stop here, not in trial 1.
    const settings = ZExperimentSettings.safeParse(experimentSettings(spec, 60, null));
    if (!settings.success) throw badInput(settings.error.issues.map((i) => i.message).join(" "));
    requireTrainable(dataset, settings.data);
    if (nextReservation(spec, 0) === null) throw badInput(`A ${input.budget.maxWallMinutes} minute budget leaves no room for one trial and the final scoring.`);
    const { targetId, placement } = await placedOn(db, asked, fallback);
    const target = await targetsService(db).get(targetId);
    if (!target.enabled) throw badInput(`${target.name} is disabled.`);
    const count = await repo.countInProject(input.projectId);
    let s: SearchRow;
    try {
      s = await repo.create({
        projectId: input.projectId,
        opId,
        intentHash: hash,
        name: name || `Search #${count + 1} — ${input.target}`,
        targetId,
        placement: placement ? JSON.stringify(placement) : null,
        datasetId: dataset.id,
        snapshotSha256: dataset.snapshotSha256,
        spec: JSON.stringify(spec),
        createdBy: JSON.stringify(actorOf(principal)),
      });
    } catch (err) {
      const again = await repo.findByOpId(opId);
      if (again && again.intentHash === hash) return get(again.id);
      throw err;
    }
    changed(s);
    return get(s.id);
  }

  /** A move the person asked for, from the revision they read. */
  async function act(id: string, revision: number, allowed: readonly string[], move: (s: SearchRow) => Promise<boolean>, words: string) {
    const s = await require(id);
    if (s.revision !== revision) throw conflict(`The search changed since you read it (revision ${revision}, now ${s.revision}); reload and try again.`);
    if (!allowed.includes(s.status)) throw badInput(`The search is ${s.status}; it cannot be ${words}.`, { code: "search_state" });
    if (!(await move(s))) throw conflict("The search changed meanwhile; reload and try again.");
    changed(s);
    return get(id);
  }

  return {
    start,
    get,
    list: async (projectId: string) => {
      const rows = await repo.list(projectId);
      return Promise.all(
        rows.map(async (s) => {
          const trials = await repo.trials(s.id);
          return validationView(s, trials, await baselineValidationValue(db, trials));
        }),
      );
    },
    /** What an agent may read: validation only, never a test score. */
    validation: async (id: string, projectId: string) => {
      const s = await require(id, projectId);
      const trials = await repo.trials(s.id);
      return validationView(s, trials, await baselineValidationValue(db, trials));
    },
    pause: (id: string, revision: number) =>
      act(id, revision, ["running"], (s) => moveSearch(db, s, "paused", { reason: "paused by the user", wallUsedSeconds: wallUsedSeconds(s, new Date()), runningSince: null }), "paused"),
    resume: (id: string, revision: number) =>
      act(id, revision, ["paused"], (s) => moveSearch(db, s, "running", { reason: "resumed by the user", runningSince: new Date() }), "resumed"),
    /** Cancels the running trial, then scores the best so far once on test. */
    stop: (id: string, revision: number) =>
      // From a pause, the clock runs again for the final scoring.
      act(id, revision, ["running", "paused"], (s) => moveSearch(db, s, "stopping", { reason: "stopped by the user", ...(s.runningSince ? {} : { runningSince: new Date() }) }), "stopped"),

    /**
     * A proposal, checked against the search's frozen space and what is left of its
     * budget. Accepted: a `proposed` trial the loop books in turn. Rejected: recorded with
     * every reason, and nothing runs. The same opId again returns the first answer.
     */
    async propose(raw: TProposeInput, proposerName: string) {
      const input = ZProposeInput.parse(raw);
      const prior = await repo.trialByOpId(input.opId);
      if (prior) {
        await require(prior.searchId, input.projectId);
        if (prior.searchId !== input.searchId) throw conflict(`Operation ${input.opId} already made a proposal to another search.`);
        return proposalAnswer(prior);
      }
      const s = await require(input.searchId, input.projectId);
      const spec = specOf(s);
      const reasons = spaceViolations(spec.space, input.params);
      if (s.status !== "running" && s.status !== "paused") reasons.push(`The search is ${s.status}: it takes no more trials.`);
      const trials = await repo.trials(s.id);
      const waiting = trials.filter((t) => t.status === "proposed").length;
      const booked = trials.filter((t) => t.reservedAt !== null).length;
      if (booked + waiting >= spec.budget.maxTrials) reasons.push(`The budget of ${spec.budget.maxTrials} trials is spent (${booked} booked, ${waiting} waiting).`);
      if (nextReservation(spec, wallUsedSeconds(s, new Date()), longestTrialSeconds(trials)) === null) reasons.push("The search's time budget has no room for another trial.");
      const t = await repo.addTrial({
        searchId: s.id,
        number: await repo.nextNumber(s.id),
        opId: input.opId,
        status: reasons.length ? "rejected" : "proposed",
        proposer: JSON.stringify({ kind: "agent", name: proposerName }),
        hypothesis: input.hypothesis,
        params: JSON.stringify(input.params),
        ...(reasons.length ? { rejection: JSON.stringify(reasons) } : {}),
      });
      changed(s);
      return proposalAnswer(t);
    },

    /** Cancels one trial: a waiting proposal at once, a running one through its experiment. */
    async cancelTrial(trialId: string, projectId?: string) {
      const t = await repo.trial(trialId);
      const s = t ? await repo.find(t.searchId) : null;
      if (!t || !s || (projectId !== undefined && s.projectId !== projectId)) throw notFound(`There is no trial with id ${trialId} in this project.`);
      if (t.status === "proposed") await moveTrial(db, t, s, "cancelled", { reason: "cancelled before it started", endedAt: new Date() });
      else if (t.experimentId && (t.status === "running" || t.status === "reserved" || t.status === "unknown")) await experimentsService(db).cancel(t.experimentId);
      else throw badInput(`Trial ${t.number} is ${t.status}; there is nothing to cancel.`, { code: "trial_state" });
      changed(s);
      return { trialId: t.id, number: t.number, status: (await repo.trial(t.id))?.status ?? t.status };
    },
  };
}

function proposalAnswer(t: { id: string; number: number; status: string; rejection: string | null }) {
  return t.status === "rejected"
    ? { accepted: false as const, trialId: t.id, number: t.number, reasons: JSON.parse(t.rejection ?? "[]") as string[] }
    : { accepted: true as const, trialId: t.id, number: t.number, status: t.status };
}
