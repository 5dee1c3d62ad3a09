import { describe, expect, it } from "vitest";
import type { ScheduleRunView } from "@/contracts/schedules/schedules";
import { clockOfDraft, draftOfClock, newClockDraft } from "./clock-draft";
import { admittingWords, groupRuns, registrableRun, relativeWords, skippedWords, stateWords } from "./schedule-words";

const run = (seq: number, outcome: ScheduleRunView["outcome"], over: Partial<ScheduleRunView> = {}): ScheduleRunView => ({
  seq,
  trigger: "clock",
  outcome,
  reason: null,
  step: null,
  slotAt: "2026-12-01T12:00:00.000Z",
  createdAt: "2026-12-01T12:00:00.000Z",
  dataSha256: null,
  rows: null,
  experimentId: outcome === "started" ? `exp-${seq}` : null,
  searchId: null,
  status: outcome === "started" ? "running" : null,
  result: null,
  ...over,
});

describe("a schedule's runs in words", () => {
  it("collapses consecutive no-ops into one line naming the latest reason, and keeps a lone no-op as a row", () => {
    const runs = [run(1, "started"), run(2, "no_op"), run(3, "no_op"), run(4, "no_op", { reason: "Data unchanged since run 1." }), run(5, "started"), run(6, "no_op")];
    const groups = groupRuns(runs);
    expect(groups.map((g) => (g.kind === "run" ? g.run.seq : g.runs.map((r) => r.seq)))).toEqual([1, [2, 3, 4], 5, 6]);
    const skipped = groups[1]!;
    expect(skipped.kind === "skipped" && skippedWords(skipped.runs)).toBe("3 no-ops: data unchanged since run 1");
  });

  it("counts coalesced ticks apart from no-ops", () => {
    expect(skippedWords([run(2, "no_op"), run(3, "coalesced", { reason: "Run 1 is still training." })])).toBe("1 no-op and 1 coalesced tick: run 1 is still training");
  });

  it("says an admitting run's step and reason", () => {
    expect(admittingWords({ step: "observing", reason: "Checking that /d/p.csv is not still being written." })).toBe("Checking the file is stable: Checking that /d/p.csv is not still being written.");
  });

  it("offers for registration only the latest started run, once it succeeded", () => {
    expect(registrableRun([run(1, "started", { status: "succeeded" }), run(2, "no_op")])?.seq).toBe(1);
    expect(registrableRun([run(1, "started", { status: "succeeded" }), run(2, "started")])).toBeNull();
    expect(registrableRun([run(1, "refused")])).toBeNull();
  });

  it("gives the next tick relative to now and a finished schedule's reason", () => {
    const now = Date.parse("2026-12-01T12:00:00Z");
    expect(relativeWords("2026-12-01T17:00:00Z", now)).toBe("in 5 h");
    expect(relativeWords("2026-12-01T12:12:00Z", now)).toBe("in 12 min");
    expect(relativeWords("2026-12-01T11:00:00Z", now)).toBe("due now");
    expect(stateWords({ state: "finished", reason: "Reached its cap of 3 runs." })).toBe("finished: Reached its cap of 3 runs");
  });
});

describe("the clock a form sends", () => {
  it("turns every N hours into minutes and refuses what is not a number", () => {
    expect(clockOfDraft({ ...newClockDraft("UTC"), every: "6" })).toEqual({ clock: { kind: "every", minutes: 360 } });
    expect(clockOfDraft({ ...newClockDraft("UTC"), every: "x" })).toHaveProperty("error");
    expect(clockOfDraft({ ...newClockDraft("UTC"), every: "1.5", unit: "minutes" })).toHaveProperty("error");
  });

  it("reads a clock back into the form", () => {
    expect(draftOfClock({ kind: "every", minutes: 90 }, "UTC")).toMatchObject({ kind: "every", every: "90", unit: "minutes" });
    expect(draftOfClock({ kind: "daily", at: "09:30", tz: "Europe/Berlin", weekdays: true }, "UTC")).toMatchObject({ kind: "daily", at: "09:30", tz: "Europe/Berlin", weekdays: true });
  });
});
