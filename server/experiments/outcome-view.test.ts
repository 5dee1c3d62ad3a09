import { describe, expect, it } from "vitest";
import { TABULAR, type TabularStep as StepName } from "./pipelines/tabular";
import { experimentOutcome, phaseViews, stepStateWords, trainingOutcome, type PhaseState, type StepFacts } from "./outcome-view";
import { explainFailure, oneLine } from "./failure-words";

/** The nine steps with the given job states; steps not named have no job. */
function chain(states: Partial<Record<StepName, string>>, cancelRequested: StepName[] = []): StepFacts[] {
  return TABULAR.steps.map((s) => ({ step: s.name, phase: s.phase, state: states[s.name] ?? null, reason: null, cancelRequested: cancelRequested.includes(s.name) }));
}
const phases = (status: string, steps: StepFacts[]) => Object.fromEntries(phaseViews(status, steps).map((p) => [p.key, p.state])) as Record<string, PhaseState>;
const PREPARED = { split: "succeeded", features_train: "succeeded", features_test: "succeeded" } as const;
const TRAINED = { ...PREPARED, train: "succeeded" } as const;
const EVALUATED = { ...TRAINED, predict: "succeeded", baseline: "succeeded", score_candidate: "succeeded", score_baseline: "succeeded" } as const;

describe("phases follow the steps, not the stored phase", () => {
  it("a succeeded run is done in every phase", () => {
    expect(phases("succeeded", chain({ ...EVALUATED, package: "succeeded" }))).toEqual({ preparing_data: "done", training: "done", evaluating: "done", comparing: "done" });
  });

  it("a run failing in each phase paints that phase failed and the later ones not reached", () => {
    expect(phases("failed", chain({ split: "failed" }))).toEqual({ preparing_data: "failed", training: "not_reached", evaluating: "not_reached", comparing: "not_reached" });
    // The baseline runs beside training, so the stored phase says "evaluating": Training is still the one that failed.
    expect(phases("failed", chain({ ...PREPARED, train: "failed", baseline: "succeeded" }))).toEqual({ preparing_data: "done", training: "failed", evaluating: "stopped", comparing: "not_reached" });
    expect(phases("failed", chain({ ...TRAINED, predict: "failed", baseline: "cancelled" }))).toEqual({ preparing_data: "done", training: "done", evaluating: "failed", comparing: "not_reached" });
    expect(phases("failed", chain({ ...EVALUATED, package: "failed" }))).toEqual({ preparing_data: "done", training: "done", evaluating: "done", comparing: "failed" });
  });

  it("a cancelled run shows the phase it was cancelled in as cancelled, never done", () => {
    expect(phases("cancelled", chain({ split: "cancelled" }))).toMatchObject({ preparing_data: "cancelled", training: "not_reached" });
    // AutoGluon stops early on SIGTERM and may exit 0: the job carries the cancel request, so it is not a finished training.
    expect(phases("cancelled", chain({ ...PREPARED, train: "succeeded", baseline: "cancelled" }, ["train", "baseline"]))).toEqual({
      preparing_data: "done",
      training: "cancelled",
      evaluating: "cancelled",
      comparing: "not_reached",
    });
    expect(phases("cancelled", chain({ ...TRAINED, predict: "cancelled", baseline: "succeeded" }, ["predict"]))).toMatchObject({ training: "done", evaluating: "cancelled" });
    expect(phases("cancelled", chain({ ...EVALUATED, package: "cancelled" }, ["package"]))).toMatchObject({ evaluating: "done", comparing: "cancelled" });
  });

  it("a timed-out run says which phase ran out of time", () => {
    expect(phases("timed_out", chain({ split: "running" }))).toMatchObject({ preparing_data: "timed_out", training: "not_reached" });
    expect(phases("timed_out", chain({ ...PREPARED, train: "cancelled", baseline: "succeeded" }, ["train"]))).toMatchObject({ preparing_data: "done", training: "timed_out" });
    expect(phases("timed_out", chain({ ...TRAINED, predict: "timed_out" }))).toMatchObject({ training: "done", evaluating: "timed_out" });
    expect(phases("timed_out", chain({ ...EVALUATED, package: "cancelled" }))).toMatchObject({ evaluating: "done", comparing: "timed_out" });
  });

  it("a running run has one current phase per running step and nothing stopped", () => {
    expect(phases("running", chain({ ...PREPARED, train: "running", baseline: "succeeded" }))).toEqual({ preparing_data: "done", training: "current", evaluating: "next", comparing: "next" });
    expect(phases("running", chain({ split: "queued" }))).toMatchObject({ preparing_data: "current", training: "next" });
  });
});

describe("step states in plain words", () => {
  const one = (state: string | null, cancelRequested = false): StepFacts => ({ step: "train", phase: "training", state, reason: null, cancelRequested });
  it("says what waiting means", () => {
    expect(stepStateWords("running", one("queued"))).toBe("waiting for a free slot");
    expect(stepStateWords("running", one("admitted"))).toBe("starting");
    expect(stepStateWords("running", one(null))).toBe("not started yet");
    expect(stepStateWords("failed", one(null))).toBe("not run");
  });
  it("says why a step was stopped", () => {
    expect(stepStateWords("failed", one("cancelled"))).toBe("stopped (another step failed)");
    expect(stepStateWords("timed_out", one("cancelled"))).toBe("stopped (the time budget ran out)");
    expect(stepStateWords("cancelled", one("cancelled"))).toBe("cancelled");
    expect(stepStateWords("cancelled", one("succeeded", true))).toBe("stopped by the cancel (not kept)");
    expect(stepStateWords("succeeded", one("succeeded"))).toBe("finished");
  });
});

describe("the training badge", () => {
  const train = (state: string | null, cancelRequested = false): StepFacts => ({ step: "train", phase: "training", state, reason: null, cancelRequested });
  it("is finished only for a training that made a kept model", () => {
    expect(trainingOutcome("succeeded", train("succeeded"))).toBe("finished");
    expect(trainingOutcome("cancelled", train("succeeded", true))).toBe("cancelled");
    expect(trainingOutcome("cancelled", train("running"))).toBe("cancelled");
    expect(trainingOutcome("failed", train("failed"))).toBe("failed");
    expect(trainingOutcome("timed_out", train("cancelled"))).toBe("timed_out");
    expect(trainingOutcome("failed", train(null))).toBe("not_started");
    expect(trainingOutcome("running", train("running"))).toBe("running");
  });
});

describe("failures explained with the next action", () => {
  it("never leaves only exit_code: the recipe's message comes first, the code goes to the details", () => {
    const f = explainFailure({ stepLabel: "Training models", state: "failed", reason: "exit_code", detail: null, error: { type: "ValueError", message: "cannot concatenate unaligned mixed dimensional NDFrame objects" } })!;
    expect(f.summary).toBe("Training models stopped with an error: cannot concatenate unaligned mixed dimensional NDFrame objects");
    expect(f.action).toMatch(/Run again/);
    expect(f.summary).not.toMatch(/exit_code/);
    expect(f.technical).toContain("reason: exit_code");
  });

  it("turns bad_input into the data problem and what to change", () => {
    const f = explainFailure({ stepLabel: "Splitting the data", state: "failed", reason: "bad_input", detail: null, error: { type: "BadInput", code: "too_few_rows", message: "only 12 labelled rows" } })!;
    expect(f.summary).toBe("The data or settings cannot be used: only 12 labelled rows");
    expect(f.action).toMatch(/more rows/);
    expect(f.summary).not.toMatch(/bad_input/);
  });

  it("shows a traceback's last line as the summary and keeps the traceback for the details", () => {
    const tb = 'Traceback (most recent call last):\n  File "/x/train.py", line 3, in <module>\n    fit()\nKeyError: \'species\'';
    expect(oneLine(tb)).toBe("KeyError: 'species'");
    const f = explainFailure({ stepLabel: "Training models", state: "failed", reason: "exit_code", detail: null, error: { type: "KeyError", message: tb } })!;
    expect(f.summary).toBe("Training models stopped with an error: KeyError: 'species'");
    expect(f.technical).toContain("Traceback (most recent call last)");
  });

  it("gives each system failure its own next step", () => {
    const base = { stepLabel: "Training models", state: "failed", detail: null, error: null };
    expect(explainFailure({ ...base, reason: "out_of_memory" })!.action).toMatch(/more memory/);
    expect(explainFailure({ ...base, reason: "disk_full" })!.action).toMatch(/free some space/);
    expect(explainFailure({ ...base, reason: "environment_missing" })!.action).toMatch(/Settings → Training computers/);
    expect(explainFailure({ ...base, reason: "exit_code" })!.summary).toBe("Training models stopped with an error and left no message.");
    const killed = explainFailure({ ...base, reason: "exit_code", detail: "the process was stopped by SIGKILL" })!;
    expect(killed.summary).toBe("Training models was killed by the system, most often because the computer ran out of memory.");
    expect(killed.action).toMatch(/Run again.*more memory/);
    expect(killed.technical).toContain("stopped by SIGKILL");
    expect(explainFailure({ ...base, state: "timed_out", reason: "deadline" })!.action).toMatch(/more minutes/);
    expect(explainFailure({ ...base, state: "succeeded", reason: "completed" })).toBeNull();
  });
});

describe("the outcome of a run that did not succeed", () => {
  it("tells a cancelled, a timed-out and an unknown run apart, each with an action", () => {
    expect(experimentOutcome("cancelled", "cancelled by the user", null, 120, null)).toMatchObject({ summary: expect.stringMatching(/You cancelled/), technical: null });
    expect(experimentOutcome("timed_out", "the 2 minute budget ran out", null, 120, "Training models")!.summary).toBe("The 2-minute time budget ran out while training models.");
    expect(experimentOutcome("unknown", null, null, 120, null)!.action).toMatch(/answers again/);
    expect(experimentOutcome("succeeded", null, null, 120, null)).toBeNull();
  });
  it("falls back to the experiment's note when no step failed", () => {
    expect(experimentOutcome("failed", "the dataset snapshot is gone", null, 120, null)!.summary).toBe("The run stopped before it could finish: the dataset snapshot is gone");
  });
});
