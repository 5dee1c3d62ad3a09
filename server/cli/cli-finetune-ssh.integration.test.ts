/**
 * `trainyard finetune --computer` on an SSH server, exactly as on This computer: a real sshd
 * on loopback, the real worker installed there, the real llm-lora recipe. The model folder
 * on the CLI's machine goes up to This computer's store and on to the server's (verified
 * by the worker's `put`); every step runs under the server's supervisor; the verified
 * export comes back and the CLI saves it. Registered, it deploys resident on that server
 * (its base model is in the server's store): generate and stream reach its serving process
 * through the SSH connection.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { readStreamEvents } from "@/contracts/deployments/stream-events";
import { EXAMPLES, SMALL, TINY_GPT2 } from "@/server/finetune/finetune-test-support";
import { runCli } from "@/server/testing/cli-process";
import { REPO, waitFor } from "@/server/testing/server-harness";
import { sshLabForFile } from "@/server/testing/ssh-lab";
import type { FineTuneJson } from "./finetune/result-json";

const { home, server, lab } = sshLabForFile({ name: "Lab server", env: { TRAINYARD_TRAINING_DIR: path.join(REPO, "training") } });

describe("fine-tuning on an SSH server from the CLI", { timeout: 600_000 }, () => {
  let fineTuned = "";
  it("sends the model folder, trains on the server and brings back the verified export", async () => {
    const out = path.join(home.scratch, "out");
    const run = await runCli(server.url, [
      "finetune", "--model", TINY_GPT2, "--data", EXAMPLES, "--computer", "lab server",
      "--max-length", String(SMALL.maxLength), "--batch-size", String(SMALL.batchSize), "--rank", String(SMALL.rank),
      "--lr", String(SMALL.learningRate), "--max-steps", "4", "--max-minutes", "5", "--out", out, "--json",
    ]).done;
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("started on Lab server");
    const result = JSON.parse(run.stdout) as FineTuneJson;
    fineTuned = result.experimentId;
    const view = await server.client.finetune.get.query({ id: result.experimentId });
    expect(view.experiment.targetId).toBe(lab.id);
    expect(result).toMatchObject({ status: "succeeded", baseLoss: view.receipt!.base.meanNll, adapterLoss: view.receipt!.adapter.meanNll, metrics: { trainSteps: 4 } });
    expect(createHash("sha256").update(readFileSync(result.exportPath!)).digest("hex")).toBe(view.export!.sha256);

    // Every step of the chain ran on the server (the upload's profile runs where the upload is stored),
    // and the model's weights are in the server's own store.
    // The adapter is scored there too, by the trusted evaluation-lm recipe importing nothing from llm-lora.
    const jobs = (await server.client.jobs.list.query({ limit: 500 })).filter((j) => ["llm-lora", "evaluation-lm"].includes(j.recipe) && j.jobName !== "profile_examples");
    expect(jobs.map((j) => `${j.recipe}.${j.jobName}`).sort()).toEqual(["evaluation-lm.score", "llm-lora.check_data", "llm-lora.export", "llm-lora.import_base", "llm-lora.preflight", "llm-lora.train"]);
    expect(new Set(jobs.map((j) => j.targetId))).toEqual(new Set([lab.id]));
    const weights = view.experiment.settings.base.kind === "folder_upload" ? view.experiment.settings.base.files.find((f) => f.path === "model.safetensors") : undefined;
    expect(weights).toBeDefined();
    expect(existsSync(path.join(lab.workerDir, "home", "store", weights!.sha256.slice(0, 2), weights!.sha256))).toBe(true);
  });

  it("deploys the fine-tune resident on the server it was trained on: generate and stream through its socket over SSH", async () => {
    await server.client.models.register.mutate({ experimentId: fineTuned, newModelName: "Lab helper" });
    const cli = async (args: string[]) => {
      const r = await runCli(server.url, [...args, "--json"]).done;
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as Record<string, unknown>;
    };
    const made = z.object({ id: z.string(), urls: z.object({ generate: z.string(), stream: z.string(), health: z.string() }) }).parse(await cli(["deploy", "Lab helper:1", "--name", "lab-chat"]));
    const key = (await cli(["deployments", "keys", "create", "lab-chat"])).key as string;
    const auth = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    await waitFor("the fine-tune to load on the server", async () => {
      const h = (await (await fetch(made.urls.health, { headers: auth })).json()) as { state: string; reason: string | null };
      if (h.state === "failed") throw new Error(`the deployment failed: ${h.reason}`);
      return h.state === "ready" ? h : undefined;
    }, 180_000, 500);
    const serving = (await server.client.jobs.list.query({ limit: 500 })).filter((j) => j.recipe === "serve-llm" && j.state === "running");
    expect(serving.map((j) => j.targetId)).toEqual([lab.id]);

    const generated = await fetch(made.urls.generate, { method: "POST", headers: auth, body: JSON.stringify({ prompt: "What is 2 + 3?", maxNewTokens: 6 }) });
    const answer = (await generated.json()) as { generatedTokens: number; release: { number: number } };
    expect(generated.status, JSON.stringify(answer)).toBe(200);
    expect(answer.generatedTokens).toBeGreaterThan(0);
    const streamed = await fetch(made.urls.stream, { method: "POST", headers: auth, body: JSON.stringify({ prompt: "What is 2 + 3?", maxNewTokens: 6 }) });
    expect(streamed.status).toBe(200);
    const events = await readStreamEvents(streamed.body!);
    expect(events[0]?.type).toBe("metadata");
    expect(events.at(-1)?.type).toBe("result");

    expect(await cli(["deployments", "stop", "lab-chat"])).toMatchObject({ state: "stopped" });
  });
});
