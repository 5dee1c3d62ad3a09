import { describe, expect, it } from "vitest";
import { ZReference, type Reference } from "@/contracts/recipes/data";
import { addHistograms, binOf, countRows, unseenAndMissing } from "./binning";

const reference: Reference = ZReference.parse({
  version: 1,
  partition: "train",
  rows: 6,
  columns: [
    { name: "mass", kind: "numeric", edges: [10, 20], counts: [2, 2, 1, 1] },
    { name: "island", kind: "categorical", categories: ["Biscoe", "Dream", "true", "3"], counts: [2, 2, 0, 0, 1, 1] },
  ],
});
const [mass, island] = reference.columns as [Reference["columns"][0], Reference["columns"][0]];

describe("a value's bin, as the data.reference job binned the training rows", () => {
  it("numeric: at or below an edge falls in that edge's bin (searchsorted left), above the last in the last, missing last", () => {
    expect([5, 10, 10.5, 20, 21, -Infinity, Infinity].map((v) => binOf(mass, v))).toEqual([0, 0, 1, 1, 2, 0, 2]);
    expect([null, undefined, "x", ""].map((v) => binOf(mass, v))).toEqual([3, 3, 3, 3]);
    // A number sent as text is a number (the recipe coerces the same way).
    expect(binOf(mass, "15")).toBe(1);
  });

  it("categorical: compared as canonical text; an unseen value is other, null is missing", () => {
    expect(["Biscoe", "Dream", true, 3, "Torgersen", "biscoe", null].map((v) => binOf(island, v))).toEqual([0, 1, 2, 3, 4, 4, 5]);
  });

  it("counts rows into histograms per column and adds histograms bin by bin", () => {
    const h = {};
    countRows(reference, [{ mass: 3, island: "Dream" }, { mass: null, island: "Nowhere" }], h);
    expect(h).toEqual({ mass: [1, 0, 0, 1], island: [0, 1, 0, 0, 1, 0] });
    expect(addHistograms(h, h)).toEqual({ mass: [2, 0, 0, 2], island: [0, 2, 0, 0, 2, 0] });
  });

  it("the shares of unseen categories and of missing values in a window", () => {
    expect(unseenAndMissing(island, [1, 1, 0, 0, 1, 1])).toEqual({ unseenShare: 0.25, missingShare: 0.25 });
    expect(unseenAndMissing(mass, [1, 0, 0, 1])).toEqual({ unseenShare: 0, missingShare: 0.5 });
    expect(unseenAndMissing(mass, [0, 0, 0, 0])).toEqual({ unseenShare: 0, missingShare: 0 });
  });

  it("a reference whose counts do not match its bins is refused", () => {
    expect(ZReference.safeParse({ ...reference, columns: [{ ...mass, counts: [1, 2] }] }).success).toBe(false);
  });
});
