import { describe, expect, it } from "vitest";
import { JOB_STATES, experimentLifecycle } from "../lifecycles";
import {
  CLASSIFICATION_METRICS,
  EXPERIMENT_STATUS_LABELS,
  JOB_STATE_WORDS,
  METRIC_INFO,
  METRICS,
  REGRESSION_METRICS,
  directionWords,
  experimentStatusLabel,
  formatBytes,
  issueWords,
  jobStateLabel,
  metricFits,
  metricLabel,
  metricsFor,
} from "./index";

describe("metrics", () => {
  it("each metric fits exactly one kind of task and has a name and a direction", () => {
    for (const m of METRICS) {
      expect(metricFits("regression", m)).not.toBe(metricFits("binary", m));
      expect(METRIC_INFO[m].label.length).toBeGreaterThan(0);
    }
    expect(metricsFor("multiclass")).toEqual(CLASSIFICATION_METRICS);
    expect(metricsFor("regression")).toEqual(REGRESSION_METRICS);
    expect(metricsFor(null)).toEqual(CLASSIFICATION_METRICS);
  });
  it("errors and losses are lower-is-better, scores higher-is-better", () => {
    const lower = METRICS.filter((m) => METRIC_INFO[m].direction === "lower_is_better");
    expect(lower).toEqual(["log_loss", "rmse", "mae"]);
    expect(directionWords(METRIC_INFO.rmse.direction)).toBe("lower is better");
    expect(directionWords(METRIC_INFO.r2.direction)).toBe("higher is better");
  });
  it("shows an unknown metric by its own name", () => {
    expect(metricLabel("r2")).toBe("R²");
    expect(metricLabel("pinball")).toBe("pinball");
  });
});

describe("state words", () => {
  it("name every job state and experiment status in plain words", () => {
    expect(Object.keys(JOB_STATE_WORDS).sort()).toEqual([...JOB_STATES].sort());
    expect(Object.keys(EXPERIMENT_STATUS_LABELS).sort()).toEqual([...experimentLifecycle.states].sort());
    expect(jobStateLabel("queued")).toBe("Waiting for a free slot");
    expect(jobStateLabel("admitted")).toBe("Starting");
    expect(experimentStatusLabel("timed_out")).toBe("Timed out");
    expect(experimentStatusLabel("paused")).toBe("paused");
  });
  it("say what an issue code means, or the code with spaces when it is new", () => {
    expect(issueWords("id_like_column")).toBe("looks like an ID");
    expect(issueWords("leakage_suspect")).toBe("may contain the answer");
    expect(issueWords("brand_new_check")).toBe("brand new check");
  });
});

describe("formatBytes", () => {
  it("rounds one way: one decimal below 10 of a unit, whole numbers above, never a trailing .0", () => {
    expect(formatBytes(512)).toBe("512 bytes");
    expect(formatBytes(1024)).toBe("1 KiB");
    expect(formatBytes(1536)).toBe("1.5 KiB");
    expect(formatBytes(15 * 1024 + 300)).toBe("15 KiB");
    expect(formatBytes(10 * 1024 ** 2)).toBe("10 MiB");
    expect(formatBytes(2.4 * 1024 ** 3)).toBe("2.4 GiB");
    expect(formatBytes(2 * 1024 ** 3)).toBe("2 GiB");
  });
  it("says unknown when there is no number", () => {
    expect(formatBytes(null)).toBe("unknown");
    expect(formatBytes(undefined)).toBe("unknown");
    expect(formatBytes(Number.NaN)).toBe("unknown");
  });
});
