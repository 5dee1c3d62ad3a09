/**
 * Brings a deployment's release up or down on its computer and moves its state with what
 * happened. On demand there is nothing resident: each request is a short predict job, so
 * a release is ready as soon as its export is verified. A resident release is a serving
 * job (resident-serving.ts): ready once its process answers ready, `failed` with why when
 * it does not, `stopped` only once its process group is gone.
 */
import type { Db } from "@/server/db/client";
import { versionView } from "@/server/registry/registry-views";
import { moveDeployment } from "./deployment-store";
import { findDeployment } from "./deployment-views";
import { serveSpecOf } from "./release-kind";
import { deploymentsRepository } from "./deployments.repository";
import { awaitReady, startServing, stopServing, type LoadOutcome } from "./resident-serving";

/** Loads `releaseId` as a serving process; resolves once it answers ready or failed to. */
export async function loadRelease(db: Db, targetId: string, releaseId: string): Promise<LoadOutcome> {
  const repo = deploymentsRepository(db);
  const release = await repo.releaseOrThrow(releaseId);
  const version = versionView(await repo.versionOrThrow(release.versionId));
  try {
    const spec = await serveSpecOf(db, version);
    const limits = await repo.servingLimits(release.deploymentId);
    await startServing(db, { targetId, releaseId, exportSha256: version.exportSha256, spec, ...limits });
  } catch (err) {
    return { ok: false, why: `its serving job could not start: ${(err as Error).message}` };
  }
  return awaitReady(db, releaseId);
}

/** `loading` → `ready` (or `failed` with why). */
export async function bringUp(db: Db, deploymentId: string): Promise<void> {
  const d = await findDeployment(db, deploymentId);
  if (d.mode === "on_demand") {
    await moveDeployment(db, d.id, "ready", { reason: "on demand: each request runs a short predict job" });
    return;
  }
  const loaded = d.currentReleaseId ? await loadRelease(db, d.targetId, d.currentReleaseId) : { ok: false as const, why: "it has no release" };
  if (loaded.ok) await moveDeployment(db, d.id, "ready", { reason: "serving process ready" });
  else await moveDeployment(db, d.id, "failed", { reason: `The release did not load: ${loaded.why}`, data: { restart: null } });
}

/** `stopping` → `stopped` once nothing serves the deployment any more. */
export async function bringDown(db: Db, deploymentId: string): Promise<void> {
  const d = await findDeployment(db, deploymentId);
  const stopped = d.mode === "resident" && d.currentReleaseId ? await stopServing(db, d.currentReleaseId) : { ok: true as const };
  if (stopped.ok) await moveDeployment(db, d.id, "stopped", { reason: "stopped by request" });
  else await moveDeployment(db, d.id, "failed", { reason: `The stop did not complete: ${stopped.why}`, data: { restart: null } });
}

/**
 * Starts bringing a `loading` deployment up: on demand at once; resident in the background
 * (a load takes seconds to minutes), so the caller answers `loading` and health follows.
 */
export async function startUp(db: Db, deploymentId: string, log: (line: string) => void = (l) => console.error(l)): Promise<void> {
  const d = await findDeployment(db, deploymentId);
  if (d.mode === "on_demand") return bringUp(db, deploymentId);
  const busy = inFlight();
  if (busy.has(deploymentId)) return;
  busy.add(deploymentId);
  void bringUp(db, deploymentId)
    .catch((err: unknown) => log(`deployment ${deploymentId}: bringing it up failed: ${err instanceof Error ? err.stack : String(err)}`))
    .finally(() => busy.delete(deploymentId));
}

// On globalThis: route handlers (Next's bundle) start loads, the reconcile loop (the server
// entry) checks them, and each has its own copy of this module.
const IN_FLIGHT = Symbol.for("trainyard.deploymentLoads");

/** Deployments this process is bringing up now. */
export function inFlight(): Set<string> {
  const g = globalThis as { [IN_FLIGHT]?: Set<string> };
  return (g[IN_FLIGHT] ??= new Set());
}
