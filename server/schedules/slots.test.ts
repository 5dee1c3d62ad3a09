import { describe, expect, it } from "vitest";
import { ZScheduleClock } from "@/contracts/schedules/schedules";
import { clockWords, dueAt, slotAfter } from "./slots";

const at = (iso: string) => new Date(iso);

describe("schedule slots", () => {
  const every6h = ZScheduleClock.parse({ kind: "every", minutes: 360 });
  const anchor = at("2026-12-01T00:00:00Z");

  it("every N minutes counts from the anchor", () => {
    expect(slotAfter(every6h, anchor, anchor).toISOString()).toBe("2026-12-01T06:00:00.000Z");
    expect(slotAfter(every6h, anchor, at("2026-12-01T06:00:00Z")).toISOString()).toBe("2026-12-01T12:00:00.000Z");
    expect(slotAfter(every6h, anchor, at("2026-12-01T07:59:00Z")).toISOString()).toBe("2026-12-01T12:00:00.000Z");
  });

  it("nothing is due before the next slot", () => {
    const d = dueAt(every6h, anchor, at("2026-12-01T06:00:00Z"), at("2026-12-01T05:59:59Z"));
    expect(d).toEqual({ slot: null, next: at("2026-12-01T06:00:00Z"), skipped: 0 });
  });

  it("five missed slots make one tick for the latest, and the next slot is after now (no backlog)", () => {
    // Down from 05:00 to 07:10 the next day with 6-hour slots: 06, 12, 18, 00, 06 passed.
    const d = dueAt(every6h, anchor, at("2026-12-01T06:00:00Z"), at("2026-12-02T07:10:00Z"));
    expect(d.slot!.toISOString()).toBe("2026-12-02T06:00:00.000Z");
    expect(d.next.toISOString()).toBe("2026-12-02T12:00:00.000Z");
    expect(d.skipped).toBe(4);
  });

  it("daily at HH:MM keeps the wall-clock hour across daylight saving (Europe/Berlin, March 2026)", () => {
    const c = ZScheduleClock.parse({ kind: "daily", at: "09:30", tz: "Europe/Berlin" });
    expect(slotAfter(c, anchor, at("2026-03-28T12:00:00Z")).toISOString()).toBe("2026-03-29T07:30:00.000Z"); // CEST from 29 March
    expect(slotAfter(c, anchor, at("2026-03-27T12:00:00Z")).toISOString()).toBe("2026-03-28T08:30:00.000Z"); // still CET
  });

  it("weekdays skip Saturday and Sunday, and a missed weekend is one tick", () => {
    const c = ZScheduleClock.parse({ kind: "daily", at: "08:00", tz: "UTC", weekdays: true });
    expect(slotAfter(c, anchor, at("2026-12-04T09:00:00Z")).toISOString()).toBe("2026-12-07T08:00:00.000Z"); // Friday → Monday
    const d = dueAt(c, anchor, at("2026-12-02T08:00:00Z"), at("2026-12-07T09:00:00Z"));
    expect(d.slot!.toISOString()).toBe("2026-12-07T08:00:00.000Z");
    expect(d.skipped).toBe(3); // Thursday, Friday and the first Monday slot passed beside the one run
    expect(d.next.toISOString()).toBe("2026-12-08T08:00:00.000Z");
  });

  it("refuses a bad time or zone in words", () => {
    expect(ZScheduleClock.safeParse({ kind: "daily", at: "25:00", tz: "UTC" }).success).toBe(false);
    const bad = ZScheduleClock.safeParse({ kind: "daily", at: "09:00", tz: "Mars/Olympus" });
    expect(bad.error?.issues.map((i) => i.message).join()).toMatch(/IANA time zone/);
  });

  it("says the clock in words", () => {
    expect(clockWords(every6h)).toBe("every 6 hours");
    expect(clockWords({ kind: "every", minutes: 1440 })).toBe("every day");
    expect(clockWords({ kind: "every", minutes: 90 })).toBe("every 90 minutes");
    expect(clockWords({ kind: "daily", at: "09:30", tz: "Europe/Berlin", weekdays: true })).toBe("weekdays at 09:30 (Europe/Berlin)");
  });
});
