import { describe, expect, it } from "vitest";
import { TABULAR_SPACE } from "@/contracts/searches/tabular-space";
import { chartPoints, outcomeWords, proposerWords, spaceWords, testResultWords } from "./search-words";

const spec = { objective: { metric: "accuracy" as const, direction: "higher_is_better" as const, minUsefulGain: 0 } };
const trial = (number: number, family: string, validationValue: number | null, status = "succeeded") => ({ number, validationValue, status, params: { family } });

describe("search words", () => {
  it("name who proposed a trial, and the round (one Slurm job array) a planner planned it in", () => {
    expect(proposerWords({ kind: "planner", sampler: "tpe" })).toBe("Planner (TPE)");
    expect(proposerWords({ kind: "planner", sampler: "random", round: { first: 5, size: 4 } })).toBe("Planner (random start; round of trials 5–8)");
    expect(proposerWords({ kind: "agent", name: "scout" })).toBe("Agent scout");
  });

  it("says which trial was chosen, its family, and the baseline's validation score", () => {
    const w = outcomeWords({
      spec: spec as never,
      trials: [trial(1, "RF", 0.9), trial(3, "GBM", 0.98)] as never,
      outcome: { kind: "candidate", trialNumber: 3, validationValue: 0.98, baselineValidationValue: 0.4412, gain: 0.54, ended: "it ran its maximum number of trials" },
    });
    expect(w).toEqual({ headline: "Trial 3 (GBM) was chosen: validation accuracy 0.98 against the baseline's 0.441.", ended: "The search ended because it ran its maximum number of trials." });
  });

  it("keeps the baseline with the outcome's reason", () => {
    const w = outcomeWords({ spec: spec as never, trials: [], outcome: { kind: "keep_baseline", reason: "No trial produced a validation score.", bestTrialNumber: null, bestValidationValue: null, baselineValidationValue: null, ended: "x" } });
    expect(w?.headline).toBe("Keep the baseline: No trial produced a validation score.");
  });

  it("gives the one test result against the baseline's", () => {
    const final = { candidate: { primaryValue: 0.97, rows: 69 }, baseline: { primaryValue: 0.44, rows: 69 } };
    expect(testResultWords({ spec: spec as never, outcome: null, final: final as never })).toBe("On the test rows, scored once: accuracy 0.97 against the baseline's 0.44 on 69 test rows.");
  });

  it("draws the best so far in the objective's direction, skipping unscored and rejected trials", () => {
    const pts = chartPoints(spec, [trial(2, "GBM", 0.8), trial(1, "RF", 0.9), trial(3, "XT", null, "failed"), trial(4, "CAT", 0.95), trial(5, "RF", 0.1, "rejected")]);
    expect(pts).toEqual([
      { trial: 1, value: 0.9, best: 0.9 },
      { trial: 2, value: 0.8, best: 0.9 },
      { trial: 3, value: null, best: 0.9 },
      { trial: 4, value: 0.95, best: 0.95 },
    ]);
    const lower = chartPoints({ objective: { ...spec.objective, direction: "lower_is_better" } }, [trial(1, "RF", 3), trial(2, "RF", 2)]);
    expect(lower.map((p) => p.best)).toEqual([3, 2]);
  });

  it("summarises the tabular space per family", () => {
    const lines = spaceWords(TABULAR_SPACE);
    expect(lines[0]).toBe("family: GBM, CAT, RF, XT");
    expect(lines[1]).toBe("GBM: learning_rate 0.01–0.3 (log scale); num_leaves 8–128 (log scale); min_data_in_leaf 2–50 (log scale)");
    expect(lines).toHaveLength(5);
  });
});
