/**
 * Carries out a switch to a new release once the deployment is `switching`, by plan:
 *
 *   on_demand  nothing to load: the next request's predict job reads the new version.
 *   overlap    room for both (switch-room.ts): the candidate loads beside the current
 *              release, which serves until the candidate answers ready, then drains and stops.
 *   downtime   no room for both: the current release drains and unloads first, the routes
 *              answer 503 `switching` meanwhile, and a candidate that fails to load is
 *              followed by loading the current release again.
 *   idle       nothing is loaded (idle unload): the candidate loads; one that fails leaves
 *              the deployment idle on its current release.
 *
 * A failed candidate never becomes current, and its serving job is stopped.
 */
import type { Db } from "@/server/db/client";
import { moveDeployment } from "./deployment-store";
import { drainServing, stopServing } from "./resident-serving";
import { inFlight, loadRelease } from "./serving-runner";
import { freshCapacityGb, storedCapacityGb, switchRoom } from "./switch-room";
import { unlessUnreachable } from "@/server/targets/unreachable";

export type SwitchPlan = "on_demand" | "overlap" | "downtime" | "idle";

interface SwitchFrom {
  id: string;
  mode: string;
  state: string;
  targetId: string;
  memoryGb: number | null;
  currentReleaseId: string | null;
}

/** The plan for a switch of `d` as it is now (a fresh probe decides the room; the stored one when the computer does not answer). */
export async function planSwitch(db: Db, d: SwitchFrom): Promise<SwitchPlan> {
  if (d.mode === "on_demand") return "on_demand";
  if (d.state === "idle") return "idle";
  const capacity = await unlessUnreachable(freshCapacityGb(db, d.targetId), () => storedCapacityGb(db, d.targetId));
  return (await switchRoom(db, d, capacity))?.kind ?? "overlap";
}

async function unload(db: Db, releaseId: string): Promise<void> {
  // The old process first finishes what it holds (a stream mid-way).
  await drainServing(db, releaseId);
  await stopServing(db, releaseId);
}

async function carry(db: Db, d: SwitchFrom, r: { id: string; number: number }, plan: SwitchPlan): Promise<void> {
  const serving = (why: string) => moveDeployment(db, d.id, "ready", { reason: why, patch: { currentReleaseId: r.id } });
  if (plan === "on_demand") return void (await serving(`serving release ${r.number}`));
  const old = d.currentReleaseId;
  if (plan === "downtime" && old) await unload(db, old);
  const loaded = await loadRelease(db, d.targetId, r.id);
  if (loaded.ok) {
    await serving(`serving release ${r.number}${plan === "downtime" ? " (the previous one was unloaded first: no room for both)" : ""}`);
    if (plan === "overlap" && old) await unload(db, old);
    return;
  }
  await stopServing(db, r.id);
  const failed = `Release ${r.number} did not load (${loaded.why})`;
  if (plan === "overlap") return void (await moveDeployment(db, d.id, "ready", { reason: `${failed}; the previous release still serves.` }));
  if (plan === "idle" || !old) return void (await moveDeployment(db, d.id, "idle", { reason: `${failed}; the current release stays, unloaded until the next request.` }));
  const again = await loadRelease(db, d.targetId, old);
  if (again.ok) await moveDeployment(db, d.id, "ready", { reason: `${failed}; the previous release was loaded again and serves.` });
  else {
    const reason = `${failed}, and the previous release did not load again either (${again.why}). Resume the deployment to try it again.`;
    await moveDeployment(db, d.id, "failed", { reason, data: { restart: null } });
  }
}

/** Resolves once the deployment is ready (on either release), idle or failed. */
export async function carryOutSwitch(db: Db, d: SwitchFrom, r: { id: string; number: number }, plan: SwitchPlan): Promise<void> {
  // Marked in flight for the whole switch, so the reconcile loop does not take it for one a restart cut.
  const busy = inFlight();
  busy.add(d.id);
  try {
    await carry(db, d, r, plan);
  } finally {
    busy.delete(d.id);
  }
}
