// The target rules on profiles shaped like the data recipe's (values as profile.json
// gives them for penguins and columns derived from it); the real recipe's profiles go
// through the same rules in start-readiness.integration.test.ts.
import { describe, expect, it } from "vitest";
import { ZProfile, type TProfile, type TProfileColumn } from "@/server/datasets/profile.schema";
import { cutCounts, idLikeColumns, minRowsPerClass, targetReadiness } from "./target-readiness";

const col = (c: Partial<TProfileColumn> & { name: string }): TProfileColumn => ({ type: "numeric", dtype: "float64", missing: 0, distinct: 50, ...c });
const species = col({ name: "species", type: "categorical", dtype: "object", distinct: 3, topValues: [{ value: "Adelie", count: 152 }, { value: "Gentoo", count: 124 }, { value: "Chinstrap", count: 68 }] });
const mass = col({ name: "body_mass_g", missing: 2, distinct: 94, integers: true, order: null });
const penguinId = col({ name: "penguin_id", type: "id_like", dtype: "int64", distinct: 344, integers: true, order: "increasing" });
const profile = (...columns: TProfileColumn[]): TProfile => ZProfile.parse({ rows: 344, duplicateRows: 0, columns });
const codes = (r: { code: string }[]) => r.map((x) => x.code);

describe("the split arithmetic matches data.split", () => {
  it("cuts with largest remainders, ties to the earlier partition", () => {
    expect(cutCounts(344)).toEqual([241, 52, 51]);
    expect(cutCounts(4)).toEqual([3, 1, 0]);
    expect(cutCounts(5)).toEqual([3, 1, 1]);
  });
  it("needs 5 rows of a class for a 70/15/15 split to give each partition one", () => {
    expect(minRowsPerClass()).toBe(5);
    expect(minRowsPerClass({ train: 0.8, validation: 0.1, test: 0.1 })).toBe(7);
  });
});

describe("target readiness", () => {
  it("lets penguins species train, with nothing to say", () => {
    expect(targetReadiness(profile(species, mass), { target: "species", task: "multiclass" })).toEqual({ refusals: [], warnings: [] });
  });

  it("refuses a file whose only column is the target, and one where every other column is left out", () => {
    const only = targetReadiness({ ...profile(mass), rows: 40 }, { target: "body_mass_g", task: "regression" });
    expect(codes(only.refusals)).toEqual(["no_feature_columns"]);
    expect(only.refusals[0]!.message).toMatch(/body_mass_g is the only column in the file/);
    const excluded = targetReadiness(profile(species, mass), { target: "species", task: "multiclass", excludeColumns: ["body_mass_g"] });
    expect(excluded.refusals[0]!.message).toMatch(/Every column besides species is left out \(body_mass_g\)/);
  });

  it("refuses a constant target and names its value", () => {
    const r = targetReadiness(profile(col({ name: "planet", type: "categorical", dtype: "object", distinct: 1, topValues: [{ value: "Earth", count: 344 }] }), mass), { target: "planet", task: "binary" });
    expect(codes(r.refusals)).toEqual(["target_single_value"]);
    expect(r.refusals[0]!.message).toMatch(/same value \(Earth\) in every row/);
  });

  it("refuses a classification target that is unique per row", () => {
    const tag = col({ name: "tag", type: "id_like", dtype: "object", distinct: 344, fewestValues: [{ value: "P-000", count: 1 }] });
    const r = targetReadiness(profile(tag, species), { target: "tag", task: "multiclass" });
    expect(codes(r.refusals)).toEqual(["target_unique_per_row"]);
    expect(r.refusals[0]!.message).toMatch(/different value in each of its 344 rows/);
  });

  it("warns, without refusing, about a counting whole-number target as regression, and does not offer it", () => {
    const r = targetReadiness(profile(penguinId, species, mass), { target: "penguin_id", task: "regression" });
    expect(r.refusals).toEqual([]);
    expect(codes(r.warnings)).toEqual(["target_looks_like_id"]);
    expect(r.warnings[0]!.message).toMatch(/penguin_id holds a different whole number in every row, counting up/);
    expect(idLikeColumns(profile(penguinId, species, mass)).map((c) => c.name)).toEqual(["penguin_id"]);
  });

  it("says nothing about a continuous target that is unique per row (a measurement, not an id)", () => {
    const price = col({ name: "price", distinct: 344, integers: false, order: null });
    expect(targetReadiness(profile(price, species), { target: "price", task: "regression" })).toEqual({ refusals: [], warnings: [] });
    expect(idLikeColumns(profile(price, species))).toEqual([]);
  });

  it("refuses classes with too few rows for the split, naming each with its rows and what to do", () => {
    const rare = col({
      name: "tribe",
      type: "categorical",
      dtype: "object",
      distinct: 12,
      topValues: [{ value: "a", count: 300 }],
      fewestValues: [{ value: "solo", count: 1 }, { value: "pair", count: 2 }, { value: "five", count: 5 }],
    });
    const r = targetReadiness(profile(rare, mass), { target: "tribe", task: "multiclass" });
    expect(codes(r.refusals)).toEqual(["class_too_small"]);
    const m = r.refusals[0]!.message;
    expect(m).toMatch(/solo \(1 row\), pair \(2 rows\)\. Each class needs at least 5 rows/);
    expect(m).not.toMatch(/five/);
    expect(m).toMatch(/Merge them into bigger classes, add more rows of them, or drop those rows/);
  });

  it("refuses a task that does not fit the target, and too few usable rows", () => {
    expect(codes(targetReadiness(profile(species, mass), { target: "species", task: "regression" }).refusals)).toEqual(["target_not_numeric"]);
    expect(codes(targetReadiness(profile(species, mass), { target: "species", task: "binary" }).refusals)).toEqual(["task_mismatch"]);
    const tiny = targetReadiness({ rows: 7, duplicateRows: 1, columns: [col({ name: "y", distinct: 6 }), mass] }, { target: "y", task: "regression" });
    expect(codes(tiny.refusals)).toEqual(["too_few_rows"]);
    expect(tiny.refusals[0]!.message).toMatch(/Only 6 rows can be used/);
  });

  it("refuses unknown columns and the reserved row_id name", () => {
    const r = targetReadiness(profile(species, mass, col({ name: "row_id" })), { target: "species", task: "multiclass", excludeColumns: ["wingspan"], split: { strategy: "group", column: "nest" } });
    expect(codes(r.refusals)).toEqual(["unknown_column", "reserved_column"]);
    expect(r.refusals[0]!.columns).toEqual(["wingspan", "nest"]);
  });
});
