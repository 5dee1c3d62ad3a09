import { describe, expect, it } from "vitest";
import { tailLines } from "./log-tail";
import { MAX_LOG_LINE_CHARS, ZExperimentDetail, ZGetJobLogsInput, MAX_LOG_LINES } from "./tool-shapes";
import { columnStats, MIN_VALUE_COUNT, tabularDetail, type TabularFacts } from "./views";

const training = { metric: "accuracy", bestModel: "WeightedEnsemble_L2", validationScore: 0.95, trainRows: 200, validationRows: 50 } as const;

/** What the mapper reads of an experiments.get answer. */
const facts: TabularFacts = {
  id: "e1",
  kind: "tabular",
  name: "Species",
  status: "succeeded",
  phase: "comparing",
  note: null,
  task: "multiclass",
  metric: "accuracy",
  target: "species",
  mode: "quick",
  createdAt: "2026-12-01T00:00:00.000Z",
  endedAt: "2026-12-01T00:01:00.000Z",
  seconds: 60,
  datasetId: "d1",
  settings: { target: "species", task: "multiclass", metric: "accuracy", positiveClass: null, excludeColumns: [], split: { strategy: "random" }, mode: "quick", maxMinutes: 2, maxTrials: 10, seed: 42, appliedActions: [], dataIssues: [] },
  budgetSeconds: 120,
  steps: [{ step: "train", label: "Training models", jobId: "j1", shownState: "succeeded" }],
  results: {
    training,
    leaderboard: { models: [{ model: "GBM", validationScore: 0.94, fitSeconds: 1.2, stackLevel: 1 }] },
    featureImportance: null,
  },
};

/** The same answer as the API gives it: the test receipts, the comparison and the worst test rows beside it. */
const detail = {
  ...facts,
  candidate: 0.97,
  baseline: 0.44,
  betterThanBaseline: true,
  results: {
    ...facts.results!,
    leaderboard: { metric: "accuracy", partition: "validation", models: [{ ...facts.results!.leaderboard!.models[0]!, predictSecondsValidation: 0.1 }] },
    candidate: { primaryValue: 0.97, partition: "test" }, baseline: { primaryValue: 0.44 }, comparison: { better: true } },
  mistakeRows: { rows: [["Adelie"]] },
};

describe("the agent's view of an experiment", () => {
  it("passes on the validation results and none of the test receipts, scores or rows", () => {
    const out = tabularDetail(detail);
    expect(out.validation).toEqual({
      partition: "validation",
      direction: "higher_is_better",
      ...training,
      models: [{ model: "GBM", validationScore: 0.94, fitSeconds: 1.2, stackLevel: 1 }],
      featureImportance: null,
    });
    const text = JSON.stringify(out);
    for (const k of ["candidate", "baseline", "comparison", "results", "mistakeRows", "betterThanBaseline", "predictSecondsValidation"]) expect(text).not.toContain(`"${k}"`);
    expect(text).not.toContain("0.97");
  });

  it("says why there are no validation results before training succeeded", () => {
    const out = tabularDetail({ ...facts, status: "running", results: null });
    expect(out).toMatchObject({ validation: null, validationNote: expect.stringContaining("training has not succeeded") });
  });

  it("refuses an answer that carries a field outside the allow-list", () => {
    const ok = tabularDetail(detail);
    expect(() => ZExperimentDetail.parse({ ...ok, candidate: 0.97 })).toThrow(/candidate/);
  });
});

describe("column statistics", () => {
  const column = { name: "island", type: "categorical" as const, dtype: "object", missing: 0, distinct: 3, preview: ["Torgersen"] };

  it("shows only values seen at least MIN_VALUE_COUNT times, never the preview", () => {
    const s = columnStats({ ...column, topValues: [{ value: "Biscoe", count: 168 }, { value: "Rare", count: MIN_VALUE_COUNT - 1 }] });
    expect(s.commonValues).toEqual([{ value: "Biscoe", count: 168 }]);
    expect(JSON.stringify(s)).not.toContain("Torgersen");
  });

  it("shows no values of an id-like or text column", () => {
    for (const type of ["id_like", "text"] as const) {
      expect(columnStats({ ...column, type, topValues: [{ value: "A-1", count: 9 }] }).commonValues).toEqual([]);
    }
  });
});

describe("the log tail", () => {
  it("keeps the last whole lines, dropping a fragment the read began in", () => {
    expect(tailLines("ment\nb\nc\nd\n", true, 2)).toEqual({ lines: ["c", "d"], truncated: true });
    expect(tailLines("a\nb\n", false, 5)).toEqual({ lines: ["a", "b"], truncated: false });
    expect(tailLines("a\nb\nc", false, 2)).toEqual({ lines: ["b", "c"], truncated: true });
  });

  it("cuts an over-long line", () => {
    const [line] = tailLines(`${"x".repeat(MAX_LOG_LINE_CHARS + 10)}\n`, false, 1).lines;
    expect(line).toHaveLength(MAX_LOG_LINE_CHARS + 1);
  });

  it("caps maxLines at the input schema", () => {
    expect(ZGetJobLogsInput.parse({ experimentId: "e1" }).maxLines).toBe(100);
    expect(() => ZGetJobLogsInput.parse({ experimentId: "e1", maxLines: MAX_LOG_LINES + 1 })).toThrow();
  });
});
