import { describe, expect, it } from "vitest";
import { ZReceipt } from "@/contracts/recipes";
import { comparability, gate, type GateVersion } from "./gate";
import { ZLoraEvidence, type LoraEvidence } from "./lora-evidence";
import { scoreOf } from "./version-evidence";

const h = (c: string) => c.repeat(64);
const CONTRACT = {
  metric: "mean_nll_per_answer_token",
  direction: "lower",
  evalSetSha256: h("a"),
  baseSnapshotSha256: h("b"),
  maxLength: 64,
  masking: "prompt_tokens_ignored",
  chatTemplateSha256: h("c"),
  evaluatorVersion: "1.0.0",
};
const BASE = { version: 1, name: "tiny-gpt2", source: "folder", sourceSha256: h("b"), snapshotSha256: h("b"), architecture: "GPT2LMHeadModel", parameters: 102640, dequantizedFrom: null, chatTemplate: "default" };
const score = (meanNll: number) => ({ meanNll, perplexity: Math.exp(meanNll), tokens: 45, examples: 4 });

/** A LoRA version's evidence, parsed through the shape the registry stores (so a drifted builder fails here). */
function lora(adapterNll: number, over: { contract?: Partial<typeof CONTRACT>; contractSha256?: string; adapterSha256?: string; base?: object } = {}): LoraEvidence {
  const contract = { ...CONTRACT, ...over.contract };
  return ZLoraEvidence.parse({
    kind: "lora",
    base: { ...BASE, snapshotSha256: contract.baseSnapshotSha256, ...over.base },
    receipt: {
      version: 1,
      evaluator: { recipe: "evaluation-lm", recipeVersion: "1", codeSha256: h("e"), files: {}, version: contract.evaluatorVersion },
      metric: "mean_nll_per_answer_token",
      direction: "lower",
      evalSetSha256: contract.evalSetSha256,
      maxLength: contract.maxLength,
      examples: 4,
      droppedNoAnswerLeft: 0,
      base: score(1.354),
      adapter: score(adapterNll),
      betterThanBase: adapterNll < 1.354,
      generations: [],
      exactMatch: { pattern: "#### (\\S+)", examples: 4, base: 0.25, adapter: 0.5 },
      adapterSha256: over.adapterSha256 ?? h("d"),
      evaluationContract: contract,
      contractSha256: over.contractSha256 ?? h("f"),
    },
  });
}

const version = (number: number, e: LoraEvidence, over: Partial<GateVersion> = {}): GateVersion => ({
  number,
  status: "registered",
  modelSha256: e.receipt.adapterSha256,
  snapshotSha256: h("9"),
  evaluationContractHash: e.receipt.contractSha256,
  evidence: e,
  ...over,
});

describe("the promotion gate on LoRA fine-tunes", () => {
  it("reads the adapter's mean loss per answer token as the score, lower being better, and says it against the base", () => {
    const s = scoreOf(lora(1.013));
    expect(s).toMatchObject({ metric: "mean_nll_per_answer_token", label: "answer-token loss", direction: "lower_is_better", value: 1.013, baselineValue: 1.354 });
    expect(s.words).toBe("answer-token loss 1.35 → 1.01 vs its base (perplexity 3.87 → 2.75; exact match 25 % → 50 %) on 4 held-out examples");
  });

  it("promotes a version whose adapter has a lower loss by at least the minimum useful gain", () => {
    const d = gate(version(2, lora(1.01)), version(1, lora(1.2)), 0.01);
    expect(d).toMatchObject({ verdict: "better", metric: "mean_nll_per_answer_token", candidate: 1.01, selected: 1.2 });
    expect(d.verdict === "better" && d.improvement).toBeCloseTo(0.19, 10);
  });

  it("asks for an acknowledgement when the loss goes up", () => {
    const d = gate(version(2, lora(1.3)), version(1, lora(1.2)), 0.001);
    expect(d).toMatchObject({ verdict: "needs_acknowledgement", why: "not_better" });
    expect(d.reason).toContain("regression on mean_nll_per_answer_token: 1.200 → 1.300");
  });

  it("finds two LoRA versions not comparable when any part of the evaluation contract differs, and says which", () => {
    const cases: [Partial<typeof CONTRACT>, string][] = [
      [{ baseSnapshotSha256: h("8") }, "base model snapshot"],
      [{ evalSetSha256: h("7") }, "evaluation set"],
      [{ maxLength: 128 }, "max length"],
      [{ masking: "all_tokens" }, "answer-token masking"],
      [{ evaluatorVersion: "2.0.0" }, "evaluator version"],
    ];
    for (const [contract, words] of cases) {
      const other = lora(1.0, { contract, contractSha256: h("6") });
      const c = comparability(other, lora(1.2));
      expect(c).toMatchObject({ comparable: false, reason: `Not comparable: the ${words} differs.` });
      expect(gate(version(2, other), version(1, lora(1.2)), 0.001)).toMatchObject({ verdict: "needs_acknowledgement", why: "not_comparable", improvement: null });
    }
    expect(comparability(lora(1.0), lora(1.2))).toMatchObject({ comparable: true });
    expect(comparability(lora(1.0, { contractSha256: h("6") }), lora(1.2)).comparable).toBe(false);
  });

  it("never compares a LoRA version with a tabular one, and says why in words", () => {
    const tab = ZReceipt.parse({
      receiptVersion: 1,
      primaryMetric: "accuracy",
      direction: "higher_is_better",
      primaryValue: 0.9,
      rows: 10,
      metrics: { accuracy: 0.9 },
      notes: {},
      evaluator: { recipe: "evaluation", recipeVersion: "1", codeSha256: h("e"), files: {}, version: "1" },
      hashes: { exportSha256: h("1"), snapshotSha256: h("2"), splitSha256: h("3"), predictionsSha256: h("4"), labelsSha256: h("5") },
      evaluationContract: { primaryMetric: "accuracy", direction: "higher_is_better", splitSha256: h("3"), evaluatorVersion: "1", snapshotSha256: h("2"), partition: "test" },
      contractSha256: h("6"),
      task: "binary",
      positiveClass: "yes",
      classes: ["no", "yes"],
      confusionMatrix: { labels: ["no", "yes"], matrix: [[5, 0], [1, 4]] },
      perClass: {},
      residuals: null,
      worstExamples: [],
    });
    const tabular = { kind: "tabular" as const, receipt: tab, baseline: tab };
    const c = comparability(lora(1.0), tabular);
    expect(c).toMatchObject({ comparable: false, differences: [{ field: "kind", a: "lora", b: "tabular" }] });
    expect(c.reason).toBe(
      "Not comparable: one is a LoRA fine-tune of a language model scored by mean_nll_per_answer_token, the other a tabular model scored by accuracy; their scores measure different things.",
    );
    const tabVersion: GateVersion = { number: 1, status: "registered", modelSha256: h("1"), snapshotSha256: h("2"), evaluationContractHash: h("6"), evidence: tabular };
    expect(gate(version(2, lora(0.1)), tabVersion, 0.001)).toMatchObject({ verdict: "needs_acknowledgement", why: "not_comparable" });
  });

  it("says a version needs evaluation when its receipt judged another adapter, another base or another contract", () => {
    const e = lora(1.0);
    expect(gate(version(2, e, { modelSha256: h("5") }), null, 0.001)).toMatchObject({ verdict: "needs_evaluation", reason: expect.stringContaining("judged adapter") });
    expect(gate(version(2, e, { evaluationContractHash: h("5") }), null, 0.001).verdict).toBe("needs_evaluation");
    const otherBase = lora(1.0, { base: { snapshotSha256: h("4") } });
    expect(gate(version(2, otherBase), null, 0.001)).toMatchObject({ verdict: "needs_evaluation", reason: expect.stringContaining("another base model snapshot") });
    expect(gate(version(2, e), null, 0.001).verdict).toBe("first");
  });
});
