/**
 * A fine-tuning experiment through the real server, worker and llm-lora recipe on the tiny
 * random GPT-2 and GSM8K examples: finetune.start → base, checks, preflight, a loss curve,
 * the receipt and a verified export; Try it answers through a short job; the experiments
 * list shows the row with its kind; bad base models are refused before any training. A
 * fine-tune schedule on the project's newest upload of the examples trains an adapter, and
 * the same upload at the next tick is a no-op. A later run of the same model and shape is
 * preflighted on the first run's measurement, so an unmeetable budget is refused at once.
 */
import { cpSync, mkdirSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { realRecipesServerForBlock } from "@/server/testing/real-recipes-server";
import { waitFor } from "@/server/testing/server-harness";
import { allowedModelFolder, hasEnded, SMALL, TINY_GPT2, uploadExamples, waitForFineTune } from "./finetune-test-support";

const opId = () => `test-${randomUUID()}`;

describe("fine-tuning a language model through the API", { timeout: 600_000 }, () => {
  const { home, server } = realRecipesServerForBlock();
  let projectId: string;
  let datasetId: string;
  let model: string;
  let root: string;

  it("trains an adapter on a model folder and ends with its base, checks, preflight, loss curve, receipt and verified export", async () => {
    ({ root, model } = await allowedModelFolder(server, home));
    projectId = (await server.client.projects.create.mutate({ name: `Fine-tune ${Date.now()}` })).id;
    datasetId = await uploadExamples(server, projectId);
    const input = { opId: opId(), projectId, datasetId, settings: { base: { kind: "path" as const, path: model }, ...SMALL, maxSteps: 6, maxMinutes: 5 } };
    const started = await server.client.finetune.start.mutate(input);
    // The same operation again is the same experiment.
    expect((await server.client.finetune.start.mutate(input)).experiment.id).toBe(started.experiment.id);

    const done = await waitForFineTune(server, started.experiment.id, "the fine-tuning to end", hasEnded);
    expect(done.experiment.status, done.experiment.reason ?? "").toBe("succeeded");
    expect(done.base).toMatchObject({ name: "tiny-gpt2", source: "folder", architecture: "GPT2LMHeadModel", dequantizedFrom: null });
    expect(done.checks!.counts.train).toBeGreaterThan(0);
    expect(done.checks!.split.strategy).toBe("random_by_prompt");
    expect(done.preflight!.memory.fits).toBe(true);
    expect(done.training!.final).toMatchObject({ steps: 6, plannedSteps: 6, stoppedBy: "completed", resumedFromStep: null });
    expect(done.training!.trainLoss.map((p) => p.step)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(done.receipt!.examples).toBeGreaterThan(0);
    expect(done.receipt!.betterThanBase).toBe(done.receipt!.adapter.meanNll < done.receipt!.base.meanNll);
    expect(done.step).toBeNull();
    expect(done.resumable).toBe(false);

    const download = await fetch(`${server.url}${done.export!.downloadUrl}`);
    expect(download.status).toBe(200);
    expect(download.headers.get("x-checksum-sha256")).toBe(done.export!.sha256);
    expect((await download.arrayBuffer()).byteLength).toBe(done.export!.bytes);

    // The experiments list shows it with its kind and the receipt's scores; the tabular detail view refuses it by name.
    const row = (await server.client.experiments.list.query({ projectId })).find((e) => e.id === started.experiment.id)!;
    expect(row).toMatchObject({ kind: "finetune", status: "succeeded", metric: "mean_nll_per_answer_token", candidate: done.receipt!.adapter.meanNll, baseline: done.receipt!.base.meanNll });
    await expect(server.client.experiments.get.query({ id: started.experiment.id })).rejects.toMatchObject({
      message: expect.stringContaining("finetune.get"),
      data: { code: "BAD_REQUEST" },
    });
  });

  it("answers a prompt with the base and the adapter (Try it) through a short job", async () => {
    const [exp] = await server.client.experiments.list.query({ projectId });
    const { tryId } = await server.client.finetune.tryIt.mutate({ id: exp!.id, opId: opId(), prompt: "What is 2 + 3?", maxNewTokens: 8 });
    const answer = await waitFor("the answer", async () => {
      const r = await server.client.finetune.tryItResult.query({ id: exp!.id, tryId });
      return r.state === "running" ? undefined : r;
    }, 5 * 60_000, 300);
    expect(answer).toEqual({ state: "succeeded", prompt: "What is 2 + 3?", adapter: expect.any(String), base: expect.any(String), seconds: expect.any(Number) });
  });

  it("refuses a path outside the allowed folders and a folder that is not a model before anything runs", async () => {
    const start = (p: string) => server.client.finetune.start.mutate({ opId: opId(), projectId, datasetId, settings: { base: { kind: "path", path: p }, ...SMALL } });
    await expect(start(TINY_GPT2)).rejects.toMatchObject({ message: expect.stringContaining("outside the allowed folders"), data: { code: "BAD_REQUEST" } });
    const empty = path.join(root, "not-a-model");
    mkdirSync(empty);
    writeFileSync(path.join(empty, "notes.txt"), "weights go here\n");
    await expect(start(empty)).rejects.toMatchObject({ message: expect.stringContaining("is not a model folder: it has no config.json"), data: { code: "BAD_REQUEST" } });
    const before = (await server.client.experiments.list.query({ projectId })).length;
    expect(before).toBe(1);
  });

  it("fails a folder with damaged weights at the import, before its data is checked or anything trains", async () => {
    const damaged = path.join(root, "damaged");
    cpSync(TINY_GPT2, damaged, { recursive: true });
    const weights = path.join(damaged, "model.safetensors");
    truncateSync(weights, Math.floor(readFileSync(weights).length / 2));
    const op = opId();
    const exp = await server.client.finetune.start.mutate({ opId: op, projectId, datasetId, settings: { base: { kind: "path", path: damaged }, ...SMALL } });
    const ended = await waitForFineTune(server, exp.experiment.id, "the import to fail", hasEnded);
    expect(ended.experiment.status).toBe("failed");
    // Named as the step a person saw, with what the import said (not the internal step name).
    expect(ended.experiment.reason).toMatch(/^Importing the base model: /);
    expect(ended.base).toBeNull();
    expect(ended.checks).toBeNull();
    expect(ended.training).toBeNull();
    const own = (await server.client.jobs.list.query({ limit: 500 })).filter((j) => j.opId.startsWith(`${op}:`));
    expect(own).toEqual([]);
  });

  it("a fine-tune schedule on the newest upload of the examples trains an adapter; the same data again is a no-op", async () => {
    const schedule = await server.client.schedules.create.mutate({
      opId: opId(),
      projectId,
      source: { kind: "dataset", name: "gsm8k-prompt-completion.jsonl" },
      spec: { mode: "finetune", basePath: model, maxSteps: 2, maxLength: 64, batchSize: 2, rank: 2, learningRate: 0.05, maxMinutes: 5 },
      clock: { kind: "every", minutes: 1440 },
    });
    expect(schedule.name).toBe('fine-tune of tiny-gpt2 from dataset "gsm8k-prompt-completion.jsonl"');
    const decided = async (seq: number) =>
      waitFor(`run ${seq}'s decision`, async () => (await server.client.schedules.show.query({ id: schedule.id })).runs.find((r) => r.seq === seq && r.outcome !== "admitting"), 120_000, 300);
    expect((await server.client.schedules.runNow.mutate({ id: schedule.id })).outcome).toBe("admitting");
    const first = await decided(1);
    expect(first).toMatchObject({ outcome: "started", experimentId: expect.any(String) });
    const done = await waitForFineTune(server, first.experimentId!, "the scheduled fine-tune to end", hasEnded);
    expect(done.experiment.status, done.experiment.reason ?? "").toBe("succeeded");
    expect(done.training!.final).toMatchObject({ steps: 2 });
    const words = await waitFor("the run's result", async () => (await server.client.schedules.show.query({ id: schedule.id })).runs[0]!.result ?? undefined, 30_000);
    expect(words).toMatch(/^Run 1: answer-token loss \S+ \(base\) → \S+ \(adapter\)/);

    expect((await server.client.schedules.runNow.mutate({ id: schedule.id })).outcome).toBe("admitting");
    expect(await decided(2)).toMatchObject({ outcome: "no_op", reason: "Data unchanged since run 1." });
  });

  it("a later run of the same model and shape stands on an earlier preflight's measurement: a budget it cannot meet is refused without loading the model", async () => {
    const op = opId();
    const exp = await server.client.finetune.start.mutate({ opId: op, projectId, datasetId, settings: { base: { kind: "path", path: model }, ...SMALL, epochs: 100, maxMinutes: 1 } });
    const ended = await waitForFineTune(server, exp.experiment.id, "the preflight to refuse", hasEnded);
    expect(ended.experiment.status).toBe("failed");
    expect(ended.error).toMatchObject({ code: "over_budget", step: "Checking the device, memory and time" });
    expect(ended.error!.message).toMatch(/at the speed an earlier preflight measured on this computer at .* maxSteps \d+ would fit/);
    expect(ended.training).toBeNull();
    // The speed and memory of an earlier preflight of this computer that measured them itself (the first run's).
    const jobs = await server.client.jobs.list.query({ limit: 500 });
    const preflight = await server.client.jobs.get.query({ id: jobs.find((j) => j.opId === `${op}:preflight`)!.id });
    const measuredBy = (preflight.input as { measured?: { jobId: string } }).measured?.jobId;
    const earlier = jobs.find((j) => j.jobName === "preflight" && j.workerJobId === measuredBy);
    expect(earlier).toMatchObject({ state: "succeeded" });
    expect(earlier!.opId).not.toBe(`${op}:preflight`);
  });
});
