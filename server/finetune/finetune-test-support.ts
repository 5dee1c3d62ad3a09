/**
 * What the fine-tuning integration tests share: the tiny random GPT-2 copied into a folder
 * the test allows, a JSONL file of GSM8K examples uploaded as a dataset, small settings that
 * train in seconds on two CPUs, and waits on finetune.get.
 */
import { cpSync, mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { REPO, waitFor, type TestHome, type TestServer } from "@/server/testing/server-harness";
import type { FineTuneView } from "./finetune.schema";

export const TINY_GPT2 = path.join(REPO, "tests/fixtures/models/lm-buddy-fake-gpt2");
export const EXAMPLES = path.join(REPO, "training/recipes/llm_lora/tests/fixtures/gsm8k-prompt-completion.jsonl");

/** Settings that train the tiny GPT-2 in seconds: short examples, rank 2, a few steps. */
export const SMALL = { device: "cpu", maxLength: 64, batchSize: 2, rank: 2, learningRate: 0.05, seed: 0 } as const;

const ENDED = new Set(["succeeded", "failed", "cancelled", "timed_out"]);

/** An allowed folder holding the tiny GPT-2 (at `<root>/tiny-gpt2`); returns both paths. */
export async function allowedModelFolder(server: TestServer, home: TestHome): Promise<{ root: string; model: string }> {
  const root = path.join(home.root, "models");
  const model = path.join(root, "tiny-gpt2");
  mkdirSync(root, { recursive: true });
  cpSync(TINY_GPT2, model, { recursive: true });
  const s = await server.client.settings.get.query();
  await server.client.settings.update.mutate({ revision: s.revision, values: { ...s.values, allowedRoots: [root] } });
  return { root, model };
}

/** Uploads `file` as a JSONL examples dataset of the project and waits until it is read. */
export async function uploadExamples(server: TestServer, projectId: string, file = EXAMPLES): Promise<string> {
  const name = path.basename(file);
  const res = await fetch(`${server.url}/api/datasets/upload?projectId=${projectId}&fileName=${encodeURIComponent(name)}`, { method: "POST", body: readFileSync(file) });
  if (res.status !== 201) throw new Error(`upload of ${name} answered ${res.status}: ${await res.text()}`);
  const { datasetId } = (await res.json()) as { datasetId: string };
  await waitFor("the examples to be read", async () => (await server.client.datasets.get.query({ id: datasetId })).status === "ready", 5 * 60_000, 300);
  return datasetId;
}

/** Polls finetune.get until `done`; a timeout says where the experiment stood. */
export async function waitForFineTune(server: TestServer, id: string, what: string, done: (v: FineTuneView) => boolean, timeoutMs = 5 * 60_000): Promise<FineTuneView> {
  let last: FineTuneView | undefined;
  try {
    return await waitFor(what, async () => {
      last = await server.client.finetune.get.query({ id });
      return done(last) ? last : undefined;
    }, timeoutMs, 300);
  } catch (err) {
    const e = last?.experiment;
    const at = e ? { status: e.status, step: last!.step?.name, note: e.progressNote, reason: e.reason, trainingStep: last!.training?.step } : null;
    throw new Error(`${(err as Error).message}; last seen: ${JSON.stringify(at)}`);
  }
}

export const hasEnded = (v: FineTuneView) => ENDED.has(v.experiment.status);
