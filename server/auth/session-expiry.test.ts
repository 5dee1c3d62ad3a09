import { describe, expect, it } from "vitest";
import { judgeSession, SESSION_IDLE_MS, SESSION_MAX_MS } from "./session-expiry";

const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);
const DAY = 86_400_000;

describe("judgeSession", () => {
  const signedIn = { expiresAt: at(SESSION_MAX_MS), lastSeenAt: at(0) };

  it("keeps a session used within the last 7 days and touches it at most once a minute", () => {
    expect(judgeSession(signedIn, at(30_000))).toEqual({ live: true, touch: false });
    expect(judgeSession(signedIn, at(60_000))).toEqual({ live: true, touch: true });
    expect(judgeSession(signedIn, at(SESSION_IDLE_MS - 1))).toEqual({ live: true, touch: true });
  });

  it("ends a session unused for 7 days", () => {
    expect(judgeSession(signedIn, at(SESSION_IDLE_MS))).toEqual({ live: false, reason: "idle" });
  });

  it("ends a session 30 days after sign-in however recently it was used", () => {
    const busy = { ...signedIn, lastSeenAt: at(29 * DAY + 23 * 3_600_000) };
    expect(judgeSession(busy, at(29 * DAY + 23 * 3_600_000 + 1000)).live).toBe(true);
    expect(judgeSession(busy, at(SESSION_MAX_MS))).toEqual({ live: false, reason: "absolute" });
  });
});
