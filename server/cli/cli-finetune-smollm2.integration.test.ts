/**
 * The fine-tuning journey on a real pretrained model, from the command line: SmolLM2-135M-
 * Instruct as a Q4_1 GGUF file on the CLI's machine (training/tools/test_models.py caches it
 * from its PyPI wheel before the test tiers; nothing is downloaded here) is sent to the
 * server, imported through the product's GGUF path, trained with LoRA for 2 steps on real
 * GSM8K problems and scored on 6 others (from GSM8K's chat subset, which shares no problem
 * with the training file). The adapter must beat its base by the trusted receipt
 * (mean NLL per answer token on the held-out problems), and the export saved by the CLI is
 * the one the server verified. Training sees about 1,600 tokens. With 4 steps and 8 problems, measured on an idle machine:
 * 239 s in all, mean NLL per answer token 1.404 (base) -> 1.176 (adapter), training at
 * 47.5 tokens/s. With 16 held-out problems at load 3 it took 338 s (import 38, preflight 33,
 * training 123, scoring 86), 1.354 -> 1.099; the earlier 8 steps, 273 s idle (1.354 -> 1.017).
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "@/server/testing/cli-process";
import { realRecipesServerForBlock } from "@/server/testing/real-recipes-server";
import { REPO, TEST_ENVS_DIR } from "@/server/testing/server-harness";
import type { FineTuneJson } from "./finetune/result-json";

const GSM8K = path.join(REPO, "training/recipes/llm_lora/tests/fixtures");

/** The cached GGUF's path, as test_models.py reports it (it only checks the cache when the file is there). */
function smollm2Gguf(): string {
  const out = execFileSync("python3", [path.join(REPO, "training/tools/test_models.py"), "--envs-dir", TEST_ENVS_DIR], { encoding: "utf8" });
  const line = out.split("\n").find((l) => l.startsWith("smollm2-135m-instruct-q4_1: "));
  if (!line) throw new Error(`test_models.py did not report SmolLM2:\n${out}`);
  return line.slice("smollm2-135m-instruct-q4_1: ".length).trim();
}

describe("trainyard finetune on SmolLM2-135M-Instruct (GGUF) and GSM8K", { timeout: 900_000 }, () => {
  const { home, server } = realRecipesServerForBlock();

  it("trains an adapter that beats its base on held-out GSM8K problems by the receipt, and saves the verified export", async () => {
    const out = path.join(home.scratch, "out");
    // 6 of the 16 held-out problems: scoring base and adapter was a third of the test's time.
    const heldOut = path.join(home.scratch, "gsm8k-chat-6.jsonl");
    writeFileSync(heldOut, readFileSync(path.join(GSM8K, "gsm8k-chat.jsonl"), "utf8").split("\n").slice(0, 6).join("\n") + "\n");
    const started = Date.now();
    const run = await runCli(server.url, [
      "finetune", "--model", smollm2Gguf(),
      "--data", path.join(GSM8K, "gsm8k-prompt-completion.jsonl"), "--eval", heldOut,
      // 2 steps of 4 problems (~1,600 tokens); a learning rate above the default so that so few steps show (held-out loss 1.354 -> 1.131 after 2 such steps).
      "--max-length", "256", "--batch-size", "4", "--rank", "16", "--lr", "1e-3", "--max-steps", "2", "--max-minutes", "12",
      "--out", out, "--json",
    ]).done;
    const seconds = Math.round((Date.now() - started) / 1000);
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as FineTuneJson;
    const view = await server.client.finetune.get.query({ id: result.experimentId });
    const receipt = view.receipt!;

    expect(view.base).toMatchObject({ source: "gguf", dequantizedFrom: "Q4_1", architecture: "LlamaForCausalLM" });
    expect(view.checks!.counts).toEqual({ train: 48, eval: 6 });
    expect(view.training!.final).toMatchObject({ steps: 2, stoppedBy: "completed" });
    expect(receipt.examples).toBe(6);
    expect(receipt.adapter.tokens).toBe(receipt.base.tokens);
    // Better than base by the receipt: the adapter's NLL on the same held-out answer tokens is lower.
    expect(receipt.adapter.meanNll).toBeLessThan(receipt.base.meanNll);
    expect(result).toMatchObject({ status: "succeeded", betterThanBase: true, baseLoss: receipt.base.meanNll, adapterLoss: receipt.adapter.meanNll });
    expect(result.tokensPerSecond).toBeGreaterThan(0);

    expect(result.exportPath === null).toBe(view.export === null);
    if (view.export) expect(createHash("sha256").update(readFileSync(result.exportPath!)).digest("hex")).toBe(view.export.sha256);
    console.log(`SmolLM2 via the CLI: ${seconds} s; NLL ${receipt.base.meanNll.toFixed(3)} -> ${receipt.adapter.meanNll.toFixed(3)}; training ${result.tokensPerSecond} tokens/s`);
  });
});
