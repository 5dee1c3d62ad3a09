import { describe, expect, it } from "vitest";
import { bytesFreedBy } from "./retention-words";
import type { Retention } from "./registry-types";

const h = (c: string) => c.repeat(64);
const removable = (versionId: string, hash: string, exportBytes: number, sharedWithKept = false): Retention["removable"][number] => ({
  modelId: "m",
  modelName: "Species classifier",
  versionId,
  number: Number(versionId.slice(1)),
  exportSha256: hash,
  createdAt: new Date(0),
  exportBytes,
  sharedWithKept,
  bytesFreed: 0,
});

describe("what removing chosen versions frees", () => {
  const list = [removable("v1", h("a"), 100), removable("v2", h("a"), 100), removable("v3", h("b"), 40), removable("v4", h("c"), 7, true)];
  it("counts an archive once, and only when every version holding it is chosen", () => {
    expect(bytesFreedBy(new Set(["v1"]), list)).toBe(0);
    expect(bytesFreedBy(new Set(["v1", "v2"]), list)).toBe(100);
    expect(bytesFreedBy(new Set(["v1", "v2", "v3"]), list)).toBe(140);
  });
  it("frees nothing for an archive a kept version still holds", () => {
    expect(bytesFreedBy(new Set(["v4"]), list)).toBe(0);
    expect(bytesFreedBy(new Set(), list)).toBe(0);
  });
});
