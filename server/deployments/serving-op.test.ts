import { describe, expect, it } from "vitest";
import { releaseOfServingOp, servingOpId } from "./resident-serving";

describe("a serving job's opId", () => {
  it("names its release, a restart's suffixed opId too; other jobs name none", () => {
    expect(releaseOfServingOp(servingOpId("rel1"))).toBe("rel1");
    expect(releaseOfServingOp(`${servingOpId("rel1")}:0b7c1f7e-9a2d-4c55-8f3b-2f1a9e7d6c10`)).toBe("rel1");
    expect(releaseOfServingOp("predict:abc")).toBeNull();
    expect(releaseOfServingOp("data.reference:monitor-m1:1")).toBeNull();
  });
});
