/**
 * What happens when a ready resident release's serving process ends by itself (crash,
 * kill -9, memory budget): it is restarted automatically, at most MAX_RESTARTS times within
 * WINDOW_MS, each after a longer wait; past that the deployment stays `failed` with why and
 * what to do. Decided from the deployment's own lifecycle events and their typed data
 * (contracts/lifecycles/registry.ts), so the count survives a server restart and a pending
 * restart is carried out by whichever pass comes next:
 *
 *   ready → failed   data { restart: { attempt, dueAt } }  (null: none will follow)
 *   failed → loading data { cause: "restart", attempt }
 *
 * A start the owner asked for (create, resume) begins a fresh count. A serving job that was
 * cancelled (someone stopped the job itself) is not restarted.
 */
import type { DeploymentStateData } from "@/contracts/lifecycles";
import { eventDataOf } from "./deployment-store";

export const MAX_RESTARTS = 3;
export const WINDOW_MS = 10 * 60_000;
/** Wait before restart 1, 2, 3. */
export const BACKOFF_MS = [2_000, 5_000, 10_000] as const;

export interface DeploymentEvent {
  from: string;
  to: string;
  reason: string | null;
  /** JSON of the state's typed data (LifecycleEvent.data). */
  data: string | null;
  at: Date;
}

const isAutoRestart = (e: DeploymentEvent) => eventDataOf(e, "loading")?.cause === "restart";

/** Automatic restarts within the window before `at`, since the last start that was not one. */
export function restartsBefore(events: DeploymentEvent[], at: Date): number {
  let count = 0;
  for (const e of events) {
    if (e.at.getTime() > at.getTime() || e.to !== "loading") continue;
    if (!isAutoRestart(e)) count = 0;
    else if (at.getTime() - e.at.getTime() <= WINDOW_MS) count++;
  }
  return count;
}

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;
const backoffOf = (attempt: number) => BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length) - 1]!;

export interface CrashDecision {
  /** The `failed` state's data: the restart that will follow, or none. */
  data: DeploymentStateData["failed"];
  /** Why, in words, for the deployment's page. */
  reason: string;
}

/** The `failed` move for a serving process that ended (`why`, in words) at `at`; `cancelled`: its job was stopped from outside. */
export function onServingEnded(events: DeploymentEvent[], a: { why: string; at: Date; cancelled: boolean }): CrashDecision {
  const ended = `The serving process ended: ${a.why}.`;
  if (a.cancelled) return { data: { restart: null }, reason: `${ended} Its job was cancelled outside the deployment, so it is not restarted; Resume the deployment to start it again.` };
  const made = restartsBefore(events, a.at);
  if (made >= MAX_RESTARTS) {
    return {
      data: { restart: null },
      reason: `${ended} It had been restarted automatically ${MAX_RESTARTS} times within ${WINDOW_MS / 60_000} minutes, so it is not restarted again. Fix what makes it end (the cause above), then Resume the deployment (trainyard deployments resume) to start a fresh serving process.`,
    };
  }
  const attempt = made + 1;
  const delayMs = backoffOf(attempt);
  return {
    data: { restart: { attempt, dueAt: new Date(a.at.getTime() + delayMs).toISOString() } },
    reason: `${ended} It restarts automatically in ${seconds(delayMs)} (restart ${attempt} of ${MAX_RESTARTS} within ${WINDOW_MS / 60_000} minutes).`,
  };
}

/** The move to `loading` that carries out a pending restart. */
export function restartMove(pending: { attempt: number }): { data: DeploymentStateData["loading"]; reason: string } {
  return {
    data: { cause: "restart", attempt: pending.attempt },
    reason: `automatic restart ${pending.attempt} of ${MAX_RESTARTS} after the serving process ended (waited ${seconds(backoffOf(pending.attempt))})`,
  };
}
