// The evaluation-lm contracts against files the trusted evaluator really wrote:
// fixtures/evaluation-lm/score.*.json come from one CPU run of its score job on the tiny
// GPT-2's adapter (fixtures/llm-lora/make_fixtures.py writes them with the llm-lora fixtures).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RECIPES } from "./index";
import { ZLoraPerExample, ZLoraReceipt } from "./evaluation-lm";

const FIXTURES = path.join(import.meta.dirname, "fixtures", "evaluation-lm");
const fixture = (name: string): unknown => JSON.parse(readFileSync(path.join(FIXTURES, name), "utf8"));
const score = RECIPES["evaluation-lm"].score;

describe("evaluation-lm score: its receipt is the only source of better-than-base", () => {
  it("the real receipt and per-example file parse with the job's declared output schemas", () => {
    expect(score.outputs["receipt.json"].safeParse(fixture("score.receipt.json")).success).toBe(true);
    expect(score.outputs["per_example.json"].safeParse(fixture("score.per_example.json")).success).toBe(true);
  });

  it("compares on NLL per answer token, lower is better, with exact match only under an answer pattern", () => {
    const receipt = ZLoraReceipt.parse(fixture("score.receipt.json"));
    expect(receipt.betterThanBase).toBe(receipt.adapter.meanNll < receipt.base.meanNll);
    expect(receipt.exactMatch?.pattern).toBe("#### (\\S+)");
    const { exactMatch: _e, ...withoutPattern } = receipt;
    expect(ZLoraReceipt.safeParse(withoutPattern).success).toBe(true);
    expect(ZLoraReceipt.safeParse({ ...receipt, direction: "higher" }).success).toBe(false);
  });

  it("names the trusted evaluator and the contract a registry gates on, which holds the scored set and base", () => {
    const receipt = ZLoraReceipt.parse(fixture("score.receipt.json"));
    expect(receipt.evaluator.recipe).toBe("evaluation-lm");
    expect(receipt.evaluationContract).toMatchObject({ evalSetSha256: receipt.evalSetSha256, maxLength: receipt.maxLength, evaluatorVersion: receipt.evaluator.version });
    const { contractSha256: _c, ...withoutContractHash } = receipt;
    expect(ZLoraReceipt.safeParse(withoutContractHash).success).toBe(false);
    const perExample = ZLoraPerExample.parse(fixture("score.per_example.json"));
    expect(perExample.adapter.reduce((n, e) => n + e.tokens, 0)).toBe(receipt.adapter.tokens);
  });

  it("refuses what the Python reader refuses: more than 100 generations, an unknown device, a missing adapter", () => {
    const base = { model: "sha256:a", adapter: "sha256:c", data: "sha256:b" };
    expect(score.input.safeParse(base).success).toBe(true);
    for (const bad of [{ generations: 101 }, { device: "tpu" }, { maxLength: 8 }, { adapter: undefined }]) {
      expect(score.input.safeParse({ ...base, ...bad }).success, JSON.stringify(bad)).toBe(false);
    }
  });
});
