import { describe, expect, it } from "vitest";
import { planToFit, type RetentionRow } from "./retention";

const h = (c: string) => c.repeat(64);
const row = (id: string, hash: string, bytes: number, day: number): RetentionRow => ({
  id,
  modelId: "m",
  number: Number(id.slice(1)),
  exportSha256: hash,
  exportBytes: BigInt(bytes),
  createdAt: new Date(Date.UTC(2026, 0, day)),
});

describe("the versions that would bring a project within its export budget", () => {
  it("plans nothing when the project already fits", () => {
    expect(planToFit([row("v1", h("a"), 100, 1)], new Set(), 100, 100)).toEqual({ versionIds: [], bytesFreed: 0, fits: true });
  });

  it("takes the oldest archives first and stops as soon as it fits", () => {
    const rows = [row("v1", h("a"), 100, 1), row("v2", h("b"), 100, 2), row("v3", h("c"), 100, 3)];
    expect(planToFit(rows, new Set(), 300, 150)).toEqual({ versionIds: ["v1", "v2"], bytesFreed: 200, fits: true });
  });

  it("removes every version sharing an archive together, dated by the newest of them", () => {
    // a is held by v1 (day 1) and v4 (day 4): it goes after b (day 2), and both its versions go.
    const rows = [row("v1", h("a"), 100, 1), row("v2", h("b"), 50, 2), row("v4", h("a"), 100, 4)];
    expect(planToFit(rows, new Set(), 150, 40)).toEqual({ versionIds: ["v2", "v1", "v4"], bytesFreed: 150, fits: true });
  });

  it("never plans an archive a kept version holds, and says when even everything is not enough", () => {
    const rows = [row("v1", h("a"), 100, 1), row("v2", h("b"), 10, 2)];
    expect(planToFit(rows, new Set([h("a")]), 200, 50)).toEqual({ versionIds: ["v2"], bytesFreed: 10, fits: false });
  });
});
