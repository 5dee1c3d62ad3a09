import { describe, expect, it } from "vitest";
import { jobFailureText } from "./job-failure-text";

const stoppedReport = { error: { code: "stopped", message: "stopped by SIGTERM" } };

describe("a failed job's words", () => {
  it("are the recipe's own when it failed by itself", () => {
    expect(jobFailureText({ state: "failed", reason: "exit_code", detail: "exit code 1", report: { error: { code: "bad_model", message: "The archive is not a model." } } })).toBe("The archive is not a model. (bad_model)");
  });

  it("are the supervisor's when it stopped the job over its memory budget (the recipe only saw SIGTERM)", () => {
    const detail = "memory budget of 0.1 GiB exceeded: the process group held 0.31 GiB";
    expect(jobFailureText({ state: "failed", reason: "out_of_memory", detail, report: stoppedReport })).toBe(detail);
  });

  it("fall back to the job's detail, then its state and reason", () => {
    expect(jobFailureText({ state: "failed", reason: "exit_code", detail: "exit code 1", report: null })).toBe("exit code 1");
    expect(jobFailureText({ state: "failed", reason: "launch_failed", detail: null, report: null })).toBe("the job ended failed (launch_failed)");
  });
});
