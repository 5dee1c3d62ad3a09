/**
 * One pass of the controller's reconcile loop over deployments: a resident release whose
 * serving job ended by itself (crash, kill -9, memory budget) makes the deployment
 * `failed` with why, and is restarted within the bounds of restart-policy.ts; one that
 * unloaded after its idle time becomes `idle`; a deployment that follows an alias switches, through the same
 * guarded release, when the alias now points at another version.
 */
import type { Db } from "@/server/db/client";
import { isTerminal } from "@/server/jobs/job-state";
import { jobFailureText } from "@/server/predictions/predict-job";
import { jobsService } from "@/server/jobs/jobs.service";
import { release } from "./deployment-actions";
import { moveDeployment, stateDataOf } from "./deployment-store";
import { servableVersion } from "./pick-release";
import { servingJobOf } from "./resident-serving";
import { inFlight, startUp } from "./serving-runner";
import { aliasTarget } from "@/server/registry/promote";
import { lifecycleEvents } from "@/server/lifecycle/events";
import { probeLinks } from "./serving-link";
import { onServingEnded, restartMove } from "./restart-policy";

const OWNER = { kind: "policy" as const, name: "follows alias" };

const idleReason = (minutes: number | null) =>
  `Unloaded after ${minutes === null ? "its idle time" : minutes < 1 ? `${Math.round(minutes * 60)} s` : `${minutes} min`} without a request; the next request loads it again (and waits for it).`;

async function noticeEndedServing(db: Db, log: (line: string) => void): Promise<void> {
  const serving = await db.deployment.findMany({ where: { mode: "resident", state: "ready" } });
  for (const d of serving) {
    if (!d.currentReleaseId) continue;
    const job = await servingJobOf(db, d.currentReleaseId);
    if (!job || !isTerminal(job.state)) continue;
    // A serving job succeeds only by unloading after its idle time (contracts/deployments/serving.ts).
    // From ready only: a stop or switch the owner started meanwhile wins.
    if (job.state === "succeeded") {
      await moveDeployment(db, d.id, "idle", { reason: idleReason(d.idleUnloadMinutes), onlyFrom: "ready" });
      continue;
    }
    const why = jobFailureText(await jobsService(db).get(job.id));
    const events = await lifecycleEvents(db).of("deployment", d.id);
    const decision = onServingEnded(events, { why, at: new Date(), cancelled: job.state === "cancelled" });
    const moved = await moveDeployment(db, d.id, "failed", { reason: decision.reason, data: decision.data, onlyFrom: "ready" });
    const restart = decision.data.restart;
    if (moved.changed && restart) log(`deployment ${d.name}: its serving process ended (${why}); restart ${restart.attempt} at ${restart.dueAt}`);
  }
}

/** Carries out the restarts the policy has pending and that are due (restart-policy.ts). */
async function restartDue(db: Db, log: (line: string) => void): Promise<void> {
  const failed = await db.deployment.findMany({ where: { mode: "resident", state: "failed" } });
  for (const d of failed) {
    const pending = stateDataOf(d, "failed")?.restart;
    if (!pending || new Date(pending.dueAt).getTime() > Date.now() || inFlight().has(d.id)) continue;
    // From failed only: a Resume or Stop the owner made meanwhile wins.
    const moved = await moveDeployment(db, d.id, "loading", { ...restartMove(pending), onlyFrom: "failed" });
    if (moved.changed) await startUp(db, d.id, log);
  }
}

async function followAliases(db: Db, log: (line: string) => void): Promise<void> {
  const following = await db.deployment.findMany({ where: { state: { in: ["ready", "idle"] }, followsAlias: { not: null } } });
  for (const d of following) {
    const target = await aliasTarget(db, d.modelId, d.followsAlias!);
    const current = d.currentReleaseId ? await db.deploymentRelease.findUnique({ where: { id: d.currentReleaseId } }) : null;
    if (!target || target.id === current?.versionId) continue;
    // In the background: a resident load takes a while, and `switching` keeps the next pass off it.
    void servableVersion(db, target)
      .then(() => release(db, d.id, d.revision, target.id, "alias", `alias "${d.followsAlias}" moved to version ${target.number}`, OWNER))
      .catch((err: unknown) => log(`deployment ${d.name}: following alias "${d.followsAlias}" to version ${target.number} failed: ${(err as Error).message}`));
  }
}

/** How long a `loading` deployment may wait for the load its request started. */
const ORPHAN_AFTER_MS = 10_000;

/**
 * A load or switch that no process is carrying on (the server restarted in the middle):
 * a `loading` deployment is brought up again (its serving job, found by release, may still
 * be running); a `switching` one goes back to its current release, which never stopped,
 * unless the switch had unloaded it first (no room for both): then it loads again.
 */
async function resumeOrphans(db: Db, log: (line: string) => void): Promise<void> {
  const before = new Date(Date.now() - ORPHAN_AFTER_MS);
  const orphans = await db.deployment.findMany({ where: { mode: "resident", state: { in: ["loading", "switching"] }, updatedAt: { lt: before } } });
  for (const d of orphans) {
    if (inFlight().has(d.id)) continue;
    if (d.state === "loading") await startUp(db, d.id, log);
    else if (stateDataOf(d, "switching")?.plan === "downtime") {
      const reason = "The switch was interrupted (the server restarted) after the current release was unloaded; it loads again.";
      const moved = await moveDeployment(db, d.id, "loading", { reason, data: { cause: "reload" }, onlyFrom: "switching" });
      if (moved.changed) await startUp(db, d.id, log);
    } else await moveDeployment(db, d.id, "ready", { reason: "The switch was interrupted (the server restarted); the current release still serves.", onlyFrom: "switching" });
  }
}

export async function reconcileDeployments(db: Db, log: (line: string) => void): Promise<void> {
  // In the background: a silent link answers nothing for seconds (serving-link.ts).
  probeLinks(db);
  await noticeEndedServing(db, log);
  await restartDue(db, log);
  await resumeOrphans(db, log);
  await followAliases(db, log);
}
