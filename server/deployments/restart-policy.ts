/**
 * What happens when a ready resident release's serving process ends by itself (crash,
 * kill -9, memory budget): it is restarted automatically, at most MAX_RESTARTS times within
 * WINDOW_MS, each after a longer wait; past that the deployment stays `failed` with why and
 * what to do. Decided from the deployment's own lifecycle events, so the count survives a
 * server restart and a pending restart is carried out by whichever pass comes next:
 *
 *   ready → failed   reason ends "It restarts automatically in N s (restart k of 3 …)."
 *   failed → loading reason starts AUTO_RESTART ("automatic restart k of 3 …")
 *
 * A start the owner asked for (create, resume) begins a fresh count. A serving job that was
 * cancelled (someone stopped the job itself) is not restarted.
 */

export const MAX_RESTARTS = 3;
export const WINDOW_MS = 10 * 60_000;
/** Wait before restart 1, 2, 3. */
export const BACKOFF_MS = [2_000, 5_000, 10_000] as const;

/** The reason of a failed → loading move made by this policy begins with this. */
export const AUTO_RESTART = "automatic restart";
/** A failed deployment whose reason holds this has a restart pending. */
export const RESTART_PENDING = "It restarts automatically";

export interface DeploymentEvent {
  from: string;
  to: string;
  reason: string | null;
  at: Date;
}

const isAutoRestart = (e: DeploymentEvent) => e.to === "loading" && (e.reason ?? "").startsWith(AUTO_RESTART);

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

export type CrashDecision = { restart: true; attempt: number; delayMs: number; reason: string } | { restart: false; reason: string };

/** The `failed` reason for a serving process that ended (`why`, in words) at `at`; `cancelled`: its job was stopped from outside. */
export function onServingEnded(events: DeploymentEvent[], a: { why: string; at: Date; cancelled: boolean }): CrashDecision {
  const ended = `The serving process ended: ${a.why}.`;
  if (a.cancelled) return { restart: false, reason: `${ended} Its job was cancelled outside the deployment, so it is not restarted; Resume the deployment to start it again.` };
  const made = restartsBefore(events, a.at);
  if (made >= MAX_RESTARTS) {
    return {
      restart: false,
      reason: `${ended} It had been restarted automatically ${MAX_RESTARTS} times within ${WINDOW_MS / 60_000} minutes, so it is not restarted again. Fix what makes it end (the cause above), then Resume the deployment (trainyard deployments resume) to start a fresh serving process.`,
    };
  }
  const attempt = made + 1;
  const delayMs = backoffOf(attempt);
  return { restart: true, attempt, delayMs, reason: `${ended} ${RESTART_PENDING} in ${seconds(delayMs)} (restart ${attempt} of ${MAX_RESTARTS} within ${WINDOW_MS / 60_000} minutes).` };
}

/** A restart this policy has pending for the deployment: when it is due, and the reason of its move to loading. Null: none pending. */
export function pendingRestart(events: DeploymentEvent[]): { dueAt: Date; attempt: number; reason: string } | null {
  const last = events.at(-1);
  if (!last || last.to !== "failed" || !(last.reason ?? "").includes(RESTART_PENDING)) return null;
  const attempt = restartsBefore(events, last.at) + 1;
  if (attempt > MAX_RESTARTS) return null;
  return {
    dueAt: new Date(last.at.getTime() + backoffOf(attempt)),
    attempt,
    reason: `${AUTO_RESTART} ${attempt} of ${MAX_RESTARTS} after the serving process ended (waited ${seconds(backoffOf(attempt))})`,
  };
}
