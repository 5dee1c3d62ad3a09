/**
 * Recipe environments on a computer. `prepareEnvironment` starts the worker's `prepare`
 * as a tracked job (a Job row named "prepare", followed by the reconcile loop like any
 * other job) and answers at once; the experiment chain and the data tools call it again
 * on later passes until the environment is ready.
 */
import { randomUUID } from "node:crypto";
import { getDb, type Db } from "@/server/db/client";
import { badInput, conflict } from "@/server/errors";
import { outdatedWorkerMessage } from "@/server/targets/compat";
import { targetsService } from "@/server/targets/targets.service";
import { intentHash } from "./intent-hash";
import { jobsRepository } from "./jobs.repository";
import type { JobView } from "./jobs.schema";
import { jobsService, PROBE_MAX_AGE_MS, recipeOnTarget } from "./jobs.service";
import { submitJob } from "./submission";

const PREPARE_DEADLINE_S = 4 * 3600;

export interface PrepareResult {
  environmentId: string;
  recipeVersion: string;
  ready: boolean;
  /** The tracked prepare job; null when the environment was already there. */
  job: JobView | null;
}

/**
 * Prepares being asked now, by computer and recipe, on globalThis (route handlers and the
 * reconcile loop each have their own copy of this module): a second ask while the first
 * is finding or admitting its job gets the same answer, so two asks at once (the chain and
 * a person, say) never admit two prepare jobs for one environment.
 */
const IN_FLIGHT = Symbol.for("trainyard.preparesInFlight");

function inFlight(): Map<string, Promise<PrepareResult>> {
  const g = globalThis as { [IN_FLIGHT]?: Map<string, Promise<PrepareResult>> };
  return (g[IN_FLIGHT] ??= new Map());
}

/**
 * Ready by a probe of the last minute (admission trusts one too), else prepareEnvironment.
 * For the steps of a chain or a search: prepareEnvironment asks the worker afresh, about a
 * second of Python discovery, which on every step was most of a search's gap between trials.
 */
export async function ensureEnvironment(targetId: string, recipeName: string, db: Db = getDb()): Promise<PrepareResult> {
  const { target, probe } = await targetsService(db).freshProbe(targetId, PROBE_MAX_AGE_MS);
  const recipe = recipeOnTarget(probe, target.name, recipeName);
  if (recipe.environmentReady && recipe.environmentId) return { environmentId: recipe.environmentId, recipeVersion: recipe.version, ready: true, job: null };
  return prepareEnvironment(targetId, recipeName, db);
}

export function prepareEnvironment(targetId: string, recipeName: string, db: Db = getDb()): Promise<PrepareResult> {
  const key = `${targetId}\u0000${recipeName}`;
  const asked = inFlight().get(key);
  if (asked) return asked;
  const answer = prepareOnce(targetId, recipeName, db).finally(() => inFlight().delete(key));
  inFlight().set(key, answer);
  return answer;
}

async function prepareOnce(targetId: string, recipeName: string, db: Db): Promise<PrepareResult> {
  const targets = targetsService(db);
  const { target, probe } = await targets.freshProbe(targetId, 0);
  const outdated = outdatedWorkerMessage(target.name, probe.workerProtocol);
  if (outdated) throw conflict(outdated);
  const recipe = recipeOnTarget(probe, target.name, recipeName);
  if (recipe.environmentReady && recipe.environmentId) {
    return { environmentId: recipe.environmentId, recipeVersion: recipe.version, ready: true, job: null };
  }
  if (!recipe.environmentId) {
    const fix = probe.pythons.find((p) => p.fix)?.fix;
    throw badInput(`${target.name} has no Python that can create environments${fix ? `: ${fix}` : ""}.`);
  }
  const repo = jobsRepository(db);
  let job = await repo.findActivePrepare(target.id, recipe.environmentId);
  if (!job) {
    const intent = { kind: "prepare", targetId: target.id, recipe: recipe.name, environmentId: recipe.environmentId };
    job = await repo.create({
      opId: `prepare:${randomUUID()}`,
      intentHash: intentHash(intent),
      targetId: target.id,
      targetRevision: target.revision,
      workerId: probe.workerId,
      recipe: recipe.name,
      recipeVersion: recipe.version,
      jobName: "prepare",
      environmentId: recipe.environmentId,
      input: "{}",
      resources: JSON.stringify({ cpus: 1, ramGb: 0 }),
      priority: 0,
      deadlineSeconds: PREPARE_DEADLINE_S,
      queuedReason: `asking ${target.name} to build the environment`,
    });
    await submitJob(db, target, job);
  }
  const v = await jobsService(db).getView(job.id);
  return { environmentId: recipe.environmentId, recipeVersion: recipe.version, ready: v.state === "succeeded", job: v };
}
