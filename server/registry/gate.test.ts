import { describe, expect, it } from "vitest";
import { ZReceipt, type Receipt } from "@/contracts/recipes";
import { comparability as evidenceComparability, gate, type GateVersion } from "./gate";

const h = (c: string) => c.repeat(64);
const CONTRACT = { primaryMetric: "balanced_accuracy", direction: "higher_is_better", splitSha256: h("a"), evaluatorVersion: "1.0.0", snapshotSha256: h("b"), partition: "test" };

function receipt(value: number, over: { contract?: Partial<typeof CONTRACT>; contractSha256?: string; modelSha256?: string } = {}): Receipt {
  const contract = { ...CONTRACT, ...over.contract };
  return ZReceipt.parse({
    receiptVersion: 1,
    primaryMetric: contract.primaryMetric,
    direction: contract.direction,
    primaryValue: value,
    rows: 70,
    metrics: { [contract.primaryMetric]: value },
    notes: {},
    evaluator: { recipe: "evaluation", recipeVersion: "1", codeSha256: h("e"), files: {}, version: contract.evaluatorVersion },
    hashes: { exportSha256: over.modelSha256 ?? h("d"), snapshotSha256: contract.snapshotSha256, splitSha256: contract.splitSha256, predictionsSha256: h("f"), labelsSha256: h("0") },
    evaluationContract: contract,
    contractSha256: over.contractSha256 ?? h("c"),
    task: "multiclass",
    positiveClass: null,
    classes: ["a", "b"],
    confusionMatrix: { labels: ["a", "b"], matrix: [[1, 0], [0, 1]] },
    perClass: {},
    residuals: null,
    worstExamples: [],
  });
}

const tabular = (r: Receipt) => ({ kind: "tabular" as const, receipt: r, baseline: r });
const comparability = (a: Receipt, b: Receipt) => evidenceComparability(tabular(a), tabular(b));

const version = (number: number, r: Receipt, over: Partial<GateVersion> = {}): GateVersion => ({
  number,
  status: "registered",
  modelSha256: r.hashes.exportSha256!,
  snapshotSha256: r.hashes.snapshotSha256,
  evaluationContractHash: r.contractSha256,
  evidence: tabular(r),
  ...over,
});

describe("the promotion gate on tabular versions", () => {
  it("promotes the first version without a comparison", () => {
    expect(gate(version(1, receipt(0.5)), null, 0.001).verdict).toBe("first");
  });

  it("promotes a comparable version that is better by at least the minimum useful gain", () => {
    const d = gate(version(2, receipt(0.83)), version(1, receipt(0.81)), 0.01);
    expect(d).toMatchObject({ verdict: "better", metric: "balanced_accuracy", candidate: 0.83, selected: 0.81 });
  });

  it("asks for an acknowledgement of a regression, naming the metric and both values", () => {
    const d = gate(version(2, receipt(0.79)), version(1, receipt(0.81)), 0.001);
    expect(d).toMatchObject({ verdict: "needs_acknowledgement", why: "not_better" });
    expect(d.reason).toContain("regression on balanced_accuracy: 0.8100 → 0.7900");
  });

  it("asks for an acknowledgement of a gain smaller than the minimum useful one", () => {
    const d = gate(version(2, receipt(0.8105)), version(1, receipt(0.81)), 0.001);
    expect(d).toMatchObject({ verdict: "needs_acknowledgement", why: "not_better" });
    expect(d.reason).toContain("no useful gain");
  });

  it("reads the direction: lower is better for an error metric", () => {
    const lower = { primaryMetric: "rmse", direction: "lower_is_better" } as const;
    expect(gate(version(2, receipt(10, { contract: lower })), version(1, receipt(12, { contract: lower })), 0.5).verdict).toBe("better");
    expect(gate(version(2, receipt(12, { contract: lower })), version(1, receipt(10, { contract: lower })), 0.5).verdict).toBe("needs_acknowledgement");
  });

  it("finds two versions not comparable when any contract field differs, and says which", () => {
    const cases: [Partial<typeof CONTRACT>, string][] = [
      [{ primaryMetric: "accuracy" }, "metric"],
      [{ direction: "lower_is_better" }, "metric direction"],
      [{ splitSha256: h("9") }, "split contract"],
      [{ evaluatorVersion: "2.0.0" }, "evaluator version"],
      [{ snapshotSha256: h("8") }, "evaluation snapshot"],
    ];
    for (const [contract, words] of cases) {
      const c = comparability(receipt(0.9, { contract, contractSha256: h("7") }), receipt(0.8));
      expect(c.comparable).toBe(false);
      expect(c.reason).toContain(words);
      const d = gate(version(2, receipt(0.99, { contract, contractSha256: h("7") })), version(1, receipt(0.5)), 0.001);
      expect(d).toMatchObject({ verdict: "needs_acknowledgement", why: "not_comparable", improvement: null });
    }
  });

  it("says the differing fields in a sentence", () => {
    expect(comparability(receipt(0.9, { contract: { primaryMetric: "accuracy" }, contractSha256: h("7") }), receipt(0.8)).reason).toBe("Not comparable: the metric differs.");
    const two = comparability(receipt(0.9, { contract: { splitSha256: h("9"), evaluatorVersion: "2.0.0" }, contractSha256: h("7") }), receipt(0.8));
    expect(two.reason).toBe("Not comparable: the split contract and evaluator version differ.");
  });

  it("treats equal fields with unequal contract hashes as not comparable", () => {
    expect(comparability(receipt(0.9, { contractSha256: h("7") }), receipt(0.9)).comparable).toBe(false);
  });

  it("says a version needs evaluation when its receipt scored another model or contract", () => {
    const r = receipt(0.9);
    expect(gate(version(2, r, { modelSha256: h("5") }), null, 0.001).verdict).toBe("needs_evaluation");
    expect(gate(version(2, r, { evaluationContractHash: h("5") }), null, 0.001).verdict).toBe("needs_evaluation");
    expect(gate(version(2, r, { snapshotSha256: h("5") }), version(1, receipt(0.5)), 0.001).verdict).toBe("needs_evaluation");
  });

  it("refuses a version whose export is missing before anything else", () => {
    expect(gate(version(2, receipt(0.99), { status: "export_missing" }), version(1, receipt(0.5)), 0.001).verdict).toBe("export_missing");
  });

  it("answers already_selected for the version that holds the alias", () => {
    const v = version(1, receipt(0.9));
    expect(gate(v, v, 0.001).verdict).toBe("already_selected");
  });
});
