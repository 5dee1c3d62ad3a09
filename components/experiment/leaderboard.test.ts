import { describe, expect, it } from "vitest";
import { leaderboardView } from "./leaderboard";

const lb = (scores: number[]) => ({ metric: "accuracy", models: scores.map((s, i) => ({ model: `Model_${i}_WeightedEnsemble_L2_FULL`, validationScore: s, fitSeconds: 1 })) });

describe("the leaderboard view", () => {
  it("marks the model training kept, else the first", () => {
    expect(leaderboardView(lb([0.9, 0.8]), "Model_1_WeightedEnsemble_L2_FULL")!.models.map((m) => m.chosen)).toEqual([false, true]);
    expect(leaderboardView(lb([0.9, 0.8]), null)!.models.map((m) => m.chosen)).toEqual([true, false]);
    expect(leaderboardView(lb([0.9, 0.8]), "GoneModel")!.models[0]!.chosen).toBe(true);
  });

  it("says when every candidate tied, and not when one did better", () => {
    expect(leaderboardView(lb([1, 1, 1]), null)!.tie).toBe(
      "All 3 candidates scored the same on validation (accuracy 1), so the choice among them is arbitrary: Model_0_WeightedEnsemble_L2_FULL was kept.",
    );
    expect(leaderboardView(lb([1, 1, 0.98]), null)!.tie).toBe("2 of the 3 candidates tied for the best validation score (accuracy 1); Model_0_WeightedEnsemble_L2_FULL was kept.");
    expect(leaderboardView(lb([1, 0.99, 0.99]), null)!.tie).toBeNull();
    expect(leaderboardView(lb([1]), null)!.tie).toBeNull();
  });

  it("is absent without models", () => {
    expect(leaderboardView(null, null)).toBeNull();
    expect(leaderboardView({ models: [] }, null)).toBeNull();
  });
});
