/**
 * Brings a deployment's release up or down on its computer and moves its state with what
 * happened. On demand there is nothing resident: each request is a short predict job, so
 * a release is ready as soon as its export is verified. Resident serving goes through the
 * worker's `serve` operation (training/serving); until that lands here, a resident
 * deployment says so in its state instead of pretending to serve.
 */
import type { Db } from "@/server/db/client";
import { moveDeployment } from "./deployment-store";
import { findDeployment } from "./deployment-views";

export const RESIDENT_UNAVAILABLE = "Resident serving is not available in this build yet; deploy with --mode on-demand.";

/** `loading` → `ready` (or `failed` with why). */
export async function bringUp(db: Db, deploymentId: string): Promise<void> {
  const d = await findDeployment(db, deploymentId);
  if (d.mode === "on_demand") {
    await moveDeployment(db, d.id, "ready", "on demand: each request runs a short predict job");
    return;
  }
  await moveDeployment(db, d.id, "failed", RESIDENT_UNAVAILABLE);
}

/** `stopping` → `stopped` once nothing serves the deployment any more. */
export async function bringDown(db: Db, deploymentId: string): Promise<void> {
  await moveDeployment(db, deploymentId, "stopped", "stopped by request");
}
