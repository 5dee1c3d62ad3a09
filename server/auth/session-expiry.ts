/**
 * When a login session ends: 7 days without use (idle) or 30 days after sign-in
 * (absolute), whichever comes first. lastSeenAt is written at most once a minute, so
 * ordinary browsing is not a database write per request; idle expiry is therefore exact
 * to within that minute.
 */
export const SESSION_IDLE_MS = 7 * 86_400_000;
export const SESSION_MAX_MS = 30 * 86_400_000;
export const SESSION_TOUCH_EVERY_MS = 60_000;

export interface SessionTimes {
  /** Absolute expiry, fixed at sign-in. */
  expiresAt: Date;
  lastSeenAt: Date;
}

export type SessionVerdict =
  | { live: true; touch: boolean }
  | { live: false; reason: "idle" | "absolute" };

export function idleExpiresAt(lastSeenAt: Date): Date {
  return new Date(lastSeenAt.getTime() + SESSION_IDLE_MS);
}

export function judgeSession(s: SessionTimes, now: Date): SessionVerdict {
  if (s.expiresAt.getTime() <= now.getTime()) return { live: false, reason: "absolute" };
  if (idleExpiresAt(s.lastSeenAt).getTime() <= now.getTime()) return { live: false, reason: "idle" };
  return { live: true, touch: now.getTime() - s.lastSeenAt.getTime() >= SESSION_TOUCH_EVERY_MS };
}
