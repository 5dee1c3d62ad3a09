/**
 * The controller's care of one deployment (the deployments' reconciler,
 * server/controller/reconcilers/deployments.ts): a resident release whose serving job
 * ended by itself (crash, kill -9, memory budget) makes the deployment `failed` with why,
 * and is restarted within the bounds of restart-policy.ts; one that unloaded after its
 * idle time becomes `idle`; a load or switch no process carries on (the server restarted)
 * resumes; a deployment that follows an alias switches, through the same guarded release,
 * when the alias now points at another version.
 */
import type { Db } from "@/server/db/client";
import type { Envelope } from "@/server/events/event-types";
import { isDomainError } from "@/server/errors";
import { isTerminal } from "@/server/jobs/job-state";
import { jobsRepository } from "@/server/jobs/jobs.repository";
import { jobFailureText } from "@/server/jobs/job-failure-text";
import { jobsService } from "@/server/jobs/jobs.service";
import { release } from "./deployment-actions";
import { moveDeployment, stateDataOf } from "./deployment-store";
import { deploymentsRepository } from "./deployments.repository";
import { servableVersion } from "./pick-release";
import { releaseOfServingOp, servingJobOf } from "./resident-serving";
import { inFlight, startUp } from "./serving-runner";
import { aliasTarget } from "@/server/registry/promote";
import { registryRepository } from "@/server/registry/registry.repository";
import { lifecycleEvents } from "@/server/lifecycle/events";
import { notedLinks, probeLink } from "./serving-link";
import { onServingEnded, restartMove } from "./restart-policy";

const OWNER = { kind: "policy" as const, name: "follows alias" };

type DeploymentRow = NonNullable<Awaited<ReturnType<ReturnType<typeof deploymentsRepository>["find"]>>>;
type Log = (line: string) => void;

const idleReason = (minutes: number | null) =>
  `Unloaded after ${minutes === null ? "its idle time" : minutes < 1 ? `${Math.round(minutes * 60)} s` : `${minutes} min`} without a request; the next request loads it again (and waits for it).`;

/** A ready resident deployment whose serving job ended. */
async function noticeEndedServing(db: Db, d: DeploymentRow, log: Log): Promise<void> {
  if (!d.currentReleaseId) return;
  const job = await servingJobOf(db, d.currentReleaseId);
  if (!job || !isTerminal(job.state)) return;
  // A serving job succeeds only by unloading after its idle time (contracts/deployments/serving.ts).
  // From ready only: a stop or switch the owner started meanwhile wins.
  if (job.state === "succeeded") {
    await moveDeployment(db, d.id, "idle", { reason: idleReason(d.idleUnloadMinutes), onlyFrom: "ready" });
    return;
  }
  const why = jobFailureText(await jobsService(db).get(job.id));
  const events = await lifecycleEvents(db).of("deployment", d.id);
  const decision = onServingEnded(events, { why, at: new Date(), cancelled: job.state === "cancelled" });
  const moved = await moveDeployment(db, d.id, "failed", { reason: decision.reason, data: decision.data, onlyFrom: "ready" });
  const restart = decision.data.restart;
  if (moved.changed && restart) log(`deployment ${d.name}: its serving process ended (${why}); restart ${restart.attempt} at ${restart.dueAt}`);
}

/** Carries out the restart the policy has pending, when it is due (restart-policy.ts). */
async function restartIfDue(db: Db, d: DeploymentRow, log: Log): Promise<void> {
  const pending = stateDataOf(d, "failed")?.restart;
  if (!pending || new Date(pending.dueAt).getTime() > Date.now() || inFlight().has(d.id)) return;
  // From failed only: a Resume or Stop the owner made meanwhile wins.
  const moved = await moveDeployment(db, d.id, "loading", { ...restartMove(pending), onlyFrom: "failed" });
  if (moved.changed) await startUp(db, d.id, log);
}

async function followAlias(db: Db, d: DeploymentRow, alias: string, log: Log): Promise<void> {
  const target = await aliasTarget(db, d.modelId, alias);
  const current = d.currentReleaseId ? await deploymentsRepository(db).release(d.currentReleaseId) : null;
  if (!target || target.id === current?.versionId) return;
  // The move's own reason goes into the release, so both histories say why (a bake's revert, say).
  const move = (await registryRepository(db).aliasEventsNewestFirst(d.modelId, alias)).find((e) => e.toVersionId === target.id);
  const why = `alias "${alias}" moved to version ${target.number}${move?.reason ? `: ${move.reason}` : ""}`;
  // In the background: a resident load takes a while, and `switching` keeps the next advance off it.
  void servableVersion(db, target)
    .then(() => release(db, d.id, d.revision, target.id, "alias", why, OWNER))
    .catch((err: unknown) => {
      // Two passes (a wake and the sweep) may both see the alias move: the first switches, the other finds the deployment moved on.
      if (isDomainError(err) && err.reason === "stale_revision") return;
      log(`deployment ${d.name}: following alias "${alias}" to version ${target.number} failed: ${(err as Error).message}`);
    });
}

/** How long a `loading` deployment may wait for the load its request started. */
const ORPHAN_AFTER_MS = 10_000;

/**
 * A load or switch that no process is carrying on (the server restarted in the middle):
 * a `loading` deployment is brought up again (its serving job, found by release, may still
 * be running); a `switching` one goes back to its current release, which never stopped,
 * unless the switch had unloaded it first (no room for both): then it loads again.
 */
async function resumeIfOrphan(db: Db, d: DeploymentRow, log: Log): Promise<void> {
  if (d.updatedAt.getTime() > Date.now() - ORPHAN_AFTER_MS || inFlight().has(d.id)) return;
  if (d.state === "loading") await startUp(db, d.id, log);
  else if (stateDataOf(d, "switching")?.plan === "downtime") {
    const reason = "The switch was interrupted (the server restarted) after the current release was unloaded; it loads again.";
    const moved = await moveDeployment(db, d.id, "loading", { reason, data: { cause: "reload" }, onlyFrom: "switching" });
    if (moved.changed) await startUp(db, d.id, log);
  } else await moveDeployment(db, d.id, "ready", { reason: "The switch was interrupted (the server restarted); the current release still serves.", onlyFrom: "switching" });
}

/** The deployments that may need the controller: serving ones, moving ones, ones following an alias, ones whose link is in doubt. */
export async function deploymentsToReconcile(db: Db): Promise<{ id: string }[]> {
  const repo = deploymentsRepository(db);
  const rows = [...(await repo.residentInState(["ready", "failed", "loading", "switching"])), ...(await repo.followingAliases())];
  return [...new Set([...rows.map((d) => d.id), ...notedLinks()])].map((id) => ({ id }));
}

export async function reconcileDeployment(db: Db, id: string, log: Log): Promise<void> {
  // In the background: a silent link answers nothing for seconds (serving-link.ts).
  probeLink(db, id);
  const repo = deploymentsRepository(db);
  const d = await repo.find(id);
  if (d?.mode === "resident") {
    if (d.state === "ready") await noticeEndedServing(db, d, log);
    else if (d.state === "failed") await restartIfDue(db, d, log);
    else if (d.state === "loading" || d.state === "switching") await resumeIfOrphan(db, d, log);
  }
  // Read again: the step above may have moved it.
  const now = await repo.find(id);
  if (now?.followsAlias && (now.state === "ready" || now.state === "idle")) await followAlias(db, now, now.followsAlias, log);
}

/** The deployments a live event concerns: its serving job changed, or its model's aliases moved. */
export async function deploymentsConcerned(db: Db, event: Envelope["event"]): Promise<string[]> {
  if (event.type === "job.changed") {
    const job = await jobsRepository(db).find(event.jobId);
    const releaseId = job ? releaseOfServingOp(job.opId) : null;
    if (!releaseId) return [];
    const r = await deploymentsRepository(db).release(releaseId);
    return r ? [r.deploymentId] : [];
  }
  if (event.type === "model.changed") return (await deploymentsRepository(db).followingAliases()).filter((d) => d.modelId === event.modelId).map((d) => d.id);
  return [];
}
