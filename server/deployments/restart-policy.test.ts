import { describe, expect, it } from "vitest";
import { eventDataOf } from "./deployment-store";
import { BACKOFF_MS, MAX_RESTARTS, onServingEnded, restartMove, restartsBefore, type DeploymentEvent } from "./restart-policy";

const t0 = new Date("2026-12-01T12:00:00Z").getTime();
const at = (s: number) => new Date(t0 + s * 1000);
const ev = (s: number, from: string, to: string, reason: string, data: unknown = null): DeploymentEvent => ({ from, to, reason, data: data === null ? null : JSON.stringify(data), at: at(s) });

/** A deployment created at 0 s and ready at 5 s, then crashes and restarts as the policy says (its typed data, never its words). */
function history(crashes: number[]): DeploymentEvent[] {
  const events = [ev(0, "stopped", "loading", "created", { cause: "start" }), ev(5, "loading", "ready", "serving process ready")];
  for (const s of crashes) {
    const d = onServingEnded(events, { why: "killed by SIGKILL", at: at(s), cancelled: false });
    events.push(ev(s, "ready", "failed", d.reason, d.data));
    const pending = d.data.restart;
    if (!pending) break;
    const due = new Date(pending.dueAt);
    const move = restartMove(pending);
    events.push({ from: "failed", to: "loading", reason: move.reason, data: JSON.stringify(move.data), at: due }, ev((due.getTime() - t0) / 1000 + 5, "loading", "ready", "serving process ready"));
  }
  return events;
}

describe("the restart policy after a serving process ends", () => {
  it("restarts up to three times within ten minutes, each after a longer wait, and says so", () => {
    const d = onServingEnded(history([]), { why: "killed by SIGKILL", at: at(60), cancelled: false });
    expect(d.data).toEqual({ restart: { attempt: 1, dueAt: new Date(at(60).getTime() + BACKOFF_MS[0]).toISOString() } });
    expect(d.reason).toMatch(/^The serving process ended: killed by SIGKILL\. It restarts automatically in 2 s \(restart 1 of 3 within 10 minutes\)\.$/);
    const events = history([60, 120, 180]);
    const restarts = events.filter((e) => eventDataOf(e, "loading")?.cause === "restart");
    expect(restarts.map((e) => eventDataOf(e, "loading")?.attempt)).toEqual([1, 2, 3]);
    expect(restarts.map((e) => e.reason)).toEqual([1, 2, 3].map((n) => expect.stringMatching(new RegExp(`^automatic restart ${n} of 3 after the serving process ended`))));
    expect(restarts.map((e) => e.at.getTime() - t0)).toEqual([62_000, 125_000, 190_000]);
  });

  it("gives up on the fourth end within the window, with the reason and what to do next", () => {
    const events = history([60, 120, 180, 240]);
    const last = events.at(-1)!;
    expect(last.to).toBe("failed");
    expect(last.reason).toMatch(/restarted automatically 3 times within 10 minutes, so it is not restarted again\. Fix what makes it end .*then Resume the deployment/);
    expect(eventDataOf(last, "failed")).toEqual({ restart: null });
    expect(restartsBefore(events, at(240))).toBe(MAX_RESTARTS);
  });

  it("counts only restarts inside the window, and starts a fresh count after a Resume", () => {
    const spread = history([60, 700, 1400, 2100]);
    expect(spread.at(-1)!.to).toBe("ready");
    const resumed = [...history([60, 120, 180, 240]), ev(300, "failed", "loading", "resume requested", { cause: "start" }), ev(305, "loading", "ready", "serving process ready")];
    expect(onServingEnded(resumed, { why: "x", at: at(320), cancelled: false }).data.restart).toMatchObject({ attempt: 1 });
  });

  it("does not restart a serving job that was cancelled from outside", () => {
    const d = onServingEnded(history([]), { why: "the job ended cancelled", at: at(60), cancelled: true });
    expect(d).toMatchObject({ data: { restart: null }, reason: expect.stringMatching(/not restarted; Resume the deployment/) });
  });

  it("reads nothing from the words: a reason that says 'automatic restart' without the data is not a restart", () => {
    const events = [ev(0, "stopped", "loading", "created", { cause: "start" }), ev(5, "loading", "ready", "ready"), ev(6, "failed", "loading", "automatic restart 1 of 3 (typed by a person)", { cause: "start" })];
    expect(restartsBefore(events, at(10))).toBe(0);
  });
});
