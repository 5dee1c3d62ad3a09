import { describe, expect, it } from "vitest";
import { explainFailure, recipeError } from "./failure-words";
import { experimentOutcome } from "./outcome-view";
import { failedStepCode, retryOf, runError } from "./run-error";

const STEP = "Checking the device, memory and time";
// A job's stored report as trainyard_recipe writes it (runner._failed: BadInput.to_error()).
const report = (error: unknown) => JSON.stringify({ status: "failed", error, metrics: {} });
const overBudget = (fittingMaxSteps: unknown) =>
  report({ type: "BadInput", code: "over_budget", message: `this run needs about 51.0 min but the budget is 9.4 min; maxSteps ${String(fittingMaxSteps)} would fit (or fewer epochs, a shorter maxLength)`, details: { fittingMaxSteps } });

/** The run's error as finetune.get builds it from the preflight job's report. */
function errorOf(jobReport: string) {
  const job = { state: "failed", reason: "bad_input", detail: "exit code 2", report: jobReport };
  const error = recipeError(job.report);
  const view = explainFailure({ stepLabel: STEP, state: job.state, reason: job.reason, detail: job.detail, error, kind: "finetune" })!;
  const outcome = experimentOutcome("failed", null, { stepLabel: STEP, view }, 900, null);
  return runError("failed", outcome, { label: STEP, view, code: failedStepCode(job, error?.code), retry: retryOf(error) });
}

describe("a refusal's fix as a new run (RunError.retry)", () => {
  it("turns the preflight's fittingMaxSteps into a run with at most that many steps", () => {
    const error = errorOf(overBudget(12));
    expect(error).toMatchObject({ code: "over_budget", step: STEP, retry: { words: "Run again with at most 12 steps", settings: { maxSteps: 12 } } });
    expect(errorOf(overBudget(1))?.retry).toEqual({ words: "Run again with at most 1 step", settings: { maxSteps: 1 } });
  });

  it("offers no run when not even one step fits the budget", () => {
    expect(errorOf(overBudget(0))).toMatchObject({ code: "over_budget", retry: null });
    expect(errorOf(overBudget(-3))?.retry).toBeNull();
  });

  it("turns the largest setting that fits the memory into a run with that batch size and length", () => {
    const memory = report({
      type: "BadInput",
      code: "does_not_fit_memory",
      message: "this setup needs about 9.1 GiB (…) but cpu has 3.2 GiB for this job; settings that would fit: […]",
      details: { fitting: [{ batchSize: 2, maxLength: 256 }, { batchSize: 1, maxLength: 512 }] },
    });
    expect(errorOf(memory)?.retry).toEqual({ words: "Run again with batch size 2 and max length 256", settings: { batchSize: 2, maxLength: 256 } });
    const none = report({ type: "BadInput", code: "does_not_fit_memory", message: "… settings that would fit: none", details: { fitting: [] } });
    expect(errorOf(none)).toMatchObject({ code: "does_not_fit_memory", retry: null });
  });

  it("reads the fix from the typed details only, never from the message's words", () => {
    // The words name a fix but the details are missing or of another shape: no retry.
    const noDetails = report({ type: "BadInput", code: "over_budget", message: "… maxSteps 12 would fit …" });
    expect(errorOf(noDetails)).toMatchObject({ code: "over_budget", message: expect.stringContaining("maxSteps 12 would fit") as string, retry: null });
    expect(errorOf(overBudget("12"))?.retry).toBeNull();
    expect(errorOf(overBudget(2.5))?.retry).toBeNull();
    const badPair = report({ type: "BadInput", code: "does_not_fit_memory", message: "…", details: { fitting: [{ batchSize: 0, maxLength: 256 }] } });
    expect(errorOf(badPair)?.retry).toBeNull();
    // Another code with the same details is not a budget refusal.
    expect(retryOf({ code: "too_few_rows", details: { fittingMaxSteps: 12 } })).toBeNull();
    expect(retryOf(null)).toBeNull();
  });

  it("keeps the recipe's error when its details are not an object, dropping only them", () => {
    const error = recipeError(report({ type: "BadInput", code: "over_budget", message: "no fit", details: [12] }));
    expect(error).toEqual({ type: "BadInput", code: "over_budget", message: "no fit" });
    expect(recipeError(report("just words"))).toBeNull();
    expect(recipeError("not json")).toBeNull();
  });

  it("is absent for a run that did not fail", () => {
    expect(runError("succeeded", null, null)).toBeNull();
  });
});
