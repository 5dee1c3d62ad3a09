import { describe, expect, it } from "vitest";
import { LORA_STEPS } from "@/server/experiments/pipelines/lora-steps";
import { TABULAR_STEPS } from "@/server/experiments/pipelines/tabular-steps";
import { exportStepOf, versionFields } from "./version-source";

describe("what an experiment gives its version", () => {
  it("gives nothing for a fine-tune without stored results or without a receipt, so registering it is refused", () => {
    expect(versionFields({ kind: "finetune", results: null })).toBeNull();
    // Results whose receipt is missing (an evaluation that never wrote one) are not evidence.
    expect(versionFields({ kind: "finetune", results: JSON.stringify({ base: {}, export: { sha256: "a".repeat(64) } }) })).toBeNull();
  });

  it("reads each kind's results with its own shape: a fine-tune's are no tabular results", () => {
    expect(versionFields({ kind: "tabular", results: JSON.stringify({ receipt: {}, base: {} }) })).toBeNull();
  });

  it("restores an export from a step its experiment's pipeline has", () => {
    expect(LORA_STEPS).toContain(exportStepOf("finetune"));
    expect(TABULAR_STEPS).toContain(exportStepOf("tabular"));
  });
});
