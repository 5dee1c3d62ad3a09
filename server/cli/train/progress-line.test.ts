import { describe, expect, it } from "vitest";
import type { ExperimentDetailView } from "@/server/experiments/experiment-views";
import { describeProgress } from "./progress-line";

// The fields the line reads; the rest of a detail view does not change it.
const view = (over: Partial<ExperimentDetailView>) =>
  ({ status: "running", phase: "training", progress: { done: 3, total: 8, currentStep: "Training models" }, steps: [], waiting: null, ...over }) as ExperimentDetailView;

describe("trainyard train / experiments show progress line", () => {
  it("says the phase, the steps done and the current step", () => {
    expect(describeProgress(view({}))).toBe("[running] Training 3/8: Training models");
  });
  it("says what a waiting step waits for and which job holds it", () => {
    const waiting = "Waiting for CPUs: the fine-tune “Fine-tune #2” is using them (2 of 2 reserved; this needs 2).";
    expect(describeProgress(view({ waiting }))).toBe(`[running] Training 3/8: Training models — ${waiting}`);
  });
});
