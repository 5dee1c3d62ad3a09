import { describe, expect, it } from "vitest";
import { stepFailureReason } from "./failure-words";

const report = (error: object) => JSON.stringify({ status: "failed", error, metrics: {} });

describe("an experiment's reason when a step fails", () => {
  it("names the step as people know it and carries the recipe's own refusal with its fix", () => {
    const why = stepFailureReason("Checking the device, memory and time", {
      state: "failed",
      reason: "bad_input",
      detail: "exit code 2",
      report: report({ type: "BadInput", code: "over_budget", message: "this run needs about 51.0 min but the budget is 9.4 min; maxSteps 2 would fit (or fewer epochs, a shorter maxLength)" }),
    });
    expect(why).toBe("Checking the device, memory and time: The data or settings cannot be used: this run needs about 51.0 min but the budget is 9.4 min; maxSteps 2 would fit (or fewer epochs, a shorter maxLength)");
    expect(why).not.toMatch(/preflight|bad_input/);
  });

  it("says a time-out, a crash's last traceback line, and a cancelled step in words", () => {
    expect(stepFailureReason("Training models", { state: "timed_out", reason: "deadline", detail: null, report: null })).toBe("Training models: Training models ran past its time limit and was stopped.");
    const traceback = "Traceback (most recent call last):\n  File \"x.py\", line 1\nValueError: the target column is empty";
    expect(stepFailureReason("Training models", { state: "failed", reason: "exit_code", detail: null, report: report({ message: traceback }) })).toBe("Training models: Training models stopped with an error: ValueError: the target column is empty");
    expect(stepFailureReason("Training models", { state: "cancelled", reason: null, detail: null, report: "not json" })).toBe("Training models ended cancelled.");
  });
});
