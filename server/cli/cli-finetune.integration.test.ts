/**
 * `trainyard finetune` as a person and a script meet it, through the real server, worker
 * and llm-lora recipe on the tiny random GPT-2: the model folder is sent file by file and
 * only once, the --json object is the receipt's, following survives a server killed and
 * started again mid-run, `experiments logs` reads each step's log, `--resume` continues a
 * cancelled run at its saved step (once), bad command lines are refused before anything
 * is sent, and a reserved holdout's prompts are kept out of the examples.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "@/server/testing/cli-process";
import { makeTestHome, REPO, startTestServer, waitFor, type TestHome, type TestServer } from "@/server/testing/server-harness";
import { EXAMPLES, SMALL, TINY_GPT2 } from "@/server/finetune/finetune-test-support";
import type { FineTuneJson } from "./finetune/result-json";

const SMALL_FLAGS = [
  "--max-length", String(SMALL.maxLength), "--batch-size", String(SMALL.batchSize), "--rank", String(SMALL.rank),
  "--lr", String(SMALL.learningRate), "--max-minutes", "5",
];

interface JsonError {
  error: { message: string; code: string };
}

describe("trainyard finetune against the real server", { timeout: 600_000 }, () => {
  let home: TestHome;
  let server: TestServer;
  let port: number;
  const start = () => startTestServer({ home, port, env: { TRAINYARD_TRAINING_DIR: path.join(REPO, "training") } });
  beforeAll(async () => {
    home = makeTestHome();
    server = await startTestServer({ home, env: { TRAINYARD_TRAINING_DIR: path.join(REPO, "training") } });
    port = Number(new URL(server.url).port);
  });
  afterAll(() => server?.stop());

  it("sends the model folder file by file, trains, and prints the receipt's losses, exact match and the saved export as one JSON object", async () => {
    const out = path.join(home.scratch, "out");
    const run = await runCli(server.url, [
      "finetune", "--model", TINY_GPT2, "--data", EXAMPLES, ...SMALL_FLAGS, "--max-steps", "6",
      "--answer-pattern", "#### (\\S+)", "--out", out, "--json",
    ]).done;
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as FineTuneJson;
    const view = await server.client.finetune.get.query({ id: result.experimentId });
    const receipt = view.receipt!;
    expect(result).toEqual<FineTuneJson>({
      experimentId: view.experiment.id,
      status: "succeeded",
      baseLoss: receipt.base.meanNll,
      adapterLoss: receipt.adapter.meanNll,
      betterThanBase: receipt.adapter.meanNll < receipt.base.meanNll,
      metrics: {
        basePerplexity: receipt.base.perplexity,
        adapterPerplexity: receipt.adapter.perplexity,
        evalExamples: receipt.examples,
        answerTokens: receipt.adapter.tokens,
        trainSteps: 6,
        finalTrainLoss: view.training!.final!.finalTrainLoss,
        exactMatch: { pattern: "#### (\\S+)", examples: expect.any(Number) as number, base: receipt.exactMatch!.base, adapter: receipt.exactMatch!.adapter },
      },
      exportPath: view.export ? expect.stringMatching(/\.tar\.gz$/) as string : null,
      exportSha256: view.export?.sha256 ?? null,
      seconds: expect.any(Number) as number,
      tokensPerSecond: view.training!.final!.tokensPerSecond,
      resumable: false,
      resumedFromId: null,
      resumedById: null,
      error: null,
    });
    expect(view.base).toMatchObject({ name: "lm-buddy-fake-gpt2", source: "folder" });
    if (view.export) expect(createHash("sha256").update(readFileSync(result.exportPath!)).digest("hex")).toBe(view.export.sha256);
    // Every file of the folder went up once, with progress on stderr.
    for (const f of readdirSync(TINY_GPT2)) expect(run.stderr).toContain(`uploading ${f}: 100%`);
    expect(run.stderr).toMatch(/\[running\] Training the adapter: step \d+\/6/);
    expect(run.stderr).toContain("Base model: lm-buddy-fake-gpt2 (GPT2LMHeadModel");

    // experiments show and list read a fine-tuning experiment as the same object (nothing saved, the run's own seconds).
    const shown = await runCli(server.url, ["experiments", "show", result.experimentId, "--json"]).done;
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout)).toEqual({ ...result, exportPath: null, seconds: expect.any(Number) as number });
    const listed = await runCli(server.url, ["experiments", "list", "--json"]).done;
    expect(listed.code, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as FineTuneJson[]).map((e) => e.experimentId)).toEqual([result.experimentId]);

    // experiments logs reads the LoRA steps' logs, each line marked with its step (some steps log nothing); --step one of them, unmarked.
    const logs = await runCli(server.url, ["experiments", "logs", result.experimentId]).done;
    expect(logs.code, logs.stderr).toBe(0);
    expect(view.steps.filter((s) => !s.jobId)).toEqual([]);
    const marks = new Set(logs.stdout.split("\n").filter((l) => l.trim()).map((l) => /^\[(\w+)\] /.exec(l)?.[1]));
    expect([...marks].every((m) => view.steps.some((s) => s.step === m)), [...marks].join(", ")).toBe(true);
    expect(logs.stdout).toContain("[train] {'loss': ");
    const trainLog = await runCli(server.url, ["experiments", "logs", result.experimentId, "--step", "train"]).done;
    expect(trainLog.code, trainLog.stderr).toBe(0);
    expect(trainLog.stdout.length).toBeGreaterThan(0);
    expect(trainLog.stdout).not.toContain("[train] ");
    expect(logs.stdout).toContain(trainLog.stdout.split("\n").find((l) => l.trim())!);
  });

  it("sends nothing twice, and follows an experiment across a server killed and started again while it trains", async () => {
    // --out keeps the saved export in the test's scratch folder (the CLI runs in the repository).
    const cli = runCli(server.url, ["finetune", "--model", TINY_GPT2, "--data", EXAMPLES, ...SMALL_FLAGS, "--max-steps", "30", "--out", path.join(home.scratch, "restart-out"), "--json"]);
    await waitFor("the CLI to report training", () => /Training the adapter: step/.test(cli.stderr()), 5 * 60_000, 200);
    await server.kill9();
    // Down until the CLI has asked and heard nothing: on a fast machine a quick restart can
    // fall between two of its polls, and the waiting it must show would go untested.
    await waitFor("the CLI to notice the server is gone", () => cli.stderr().includes("The server does not answer"), 60_000, 100);
    server = await start();
    const run = await cli.done;
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("The server does not answer; waiting for it to come back…");
    for (const f of readdirSync(TINY_GPT2)) {
      expect(run.stderr).toContain(`${f}: already on the server, not sent again`);
      expect(run.stderr).not.toContain(`uploading ${f}:`);
    }
    const result = JSON.parse(run.stdout) as FineTuneJson;
    expect(result).toMatchObject({ status: "succeeded", metrics: { trainSteps: 30, exactMatch: null } });
    expect(result.betterThanBase).toBe(result.adapterLoss! < result.baseLoss!);
  });

  it("resumes a cancelled fine-tune with --resume: training goes on from the saved step, and the stopped run is resumed only once", async () => {
    // A budget the resumed attempt cannot run out of on a loaded machine: the steps must all run.
    const flags = [...SMALL_FLAGS.slice(0, -2), "--max-minutes", "30", "--max-steps", "60"];
    const cli = runCli(server.url, ["finetune", "--model", TINY_GPT2, "--data", EXAMPLES, ...flags, "--out", path.join(home.scratch, "resume-out"), "--json"]);
    await waitFor("the CLI to report training past step 3", () => /Training the adapter: step ([3-9]|\d\d+)\//.test(cli.stderr()), 5 * 60_000, 200);
    const id = /Experiment (\S+) started/.exec(cli.stderr())![1]!;
    await server.client.experiments.cancel.mutate({ id });
    const first = await cli.done;
    expect(first.code).toBe(1);
    expect(JSON.parse(first.stdout)).toMatchObject({ experimentId: id, status: "cancelled", resumable: true, error: { code: "experiment_cancelled" } });

    const run = await runCli(server.url, ["finetune", "--resume", id, "--out", path.join(home.scratch, "resume-out"), "--json"]).done;
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as FineTuneJson;
    expect(result).toMatchObject({ status: "succeeded", resumedFromId: id, resumedById: null, resumable: false, metrics: { trainSteps: 60 } });
    const view = await server.client.finetune.get.query({ id: result.experimentId });
    const from = view.training!.final!.resumedFromStep!;
    expect(from).toBeGreaterThanOrEqual(3);
    expect(run.stderr).toContain(`resumes ${id}`);
    expect(run.stderr).toMatch(new RegExp(`Training the adapter: step \\d+(/60)?, .*resumed at step ${from}`));
    expect(result.exportPath).toMatch(/\.tar\.gz$/);

    // The stopped run now names its successor, and a second resume is refused with it.
    const shown = await runCli(server.url, ["experiments", "show", id, "--json"]).done;
    expect(JSON.parse(shown.stdout)).toMatchObject({ resumable: false, resumedById: result.experimentId });
    const again = await runCli(server.url, ["finetune", "--resume", id, "--json"]).done;
    expect(again.code).toBe(1);
    expect((JSON.parse(again.stdout) as JsonError).error).toEqual({ code: "conflict", message: expect.stringContaining(`was already resumed as "${view.experiment.name}" (${result.experimentId})`) as string });
  });

  it("refuses a bad setting, a folder that is not a model and a missing data file with the flag's name, before anything reaches the server", async () => {
    const refused = async (args: string[]) => {
      const r = await runCli(server.url, ["finetune", ...args, "--json"]).done;
      return { exit: r.code, ...(JSON.parse(r.stdout) as JsonError).error };
    };
    expect(await refused(["--model", TINY_GPT2, "--data", EXAMPLES, "--rank", "0"])).toEqual({ exit: 2, code: "usage", message: "--rank 0 is refused: Too small: expected number to be >=1" });
    expect(await refused(["--model", path.join(REPO, "tests/fixtures/models"), "--data", EXAMPLES])).toMatchObject({
      exit: 1,
      code: "not_a_model",
      message: expect.stringContaining("is not a model folder: it has no config.json"),
    });
    expect(await refused(["--model", TINY_GPT2, "--data", path.join(home.scratch, "nope.jsonl")])).toMatchObject({ exit: 1, code: "file_unreadable", message: expect.stringMatching(/^--data: Cannot read/) });
    const help = await runCli(server.url, ["finetune", "--help"]).done;
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("--remote-model PATH");
    // --resume of an unknown id, or of a run that finished, says why.
    const projects = await server.client.projects.list.query({ includeArchived: true });
    expect(projects).toHaveLength(1);
    const before = await server.client.experiments.list.query({ projectId: projects[0]!.id });
    const finished = before.find((e) => e.status === "succeeded" && !e.name.endsWith("(resumed)"))!;
    expect(await refused(["--resume", "no-such-experiment"])).toMatchObject({ exit: 1, code: "not_found", message: expect.stringContaining("no fine-tuning experiment with id no-such-experiment") });
    expect(await refused(["--resume", finished.id])).toMatchObject({ exit: 1, code: "conflict", message: expect.stringContaining("has no stopped training to resume (it is succeeded)") });
    expect(await refused(["--resume", finished.id, "--rank", "4"])).toMatchObject({ exit: 2, code: "usage", message: expect.stringContaining("leave out --rank") });
    // Only the runs above made experiments: two, and the cancelled one with its resumed attempt.
    expect(before).toHaveLength(4);
  });

  it("carries a preflight's refusal to the person: the step that refused, its words and the fix, in --json, in text and in experiments show", async () => {
    const flags = [...SMALL_FLAGS.slice(0, -2), "--max-minutes", "2", "--max-steps", "1000000"];
    const run = await runCli(server.url, ["finetune", "--model", TINY_GPT2, "--data", EXAMPLES, ...flags, "--json"]).done;
    expect(run.code, run.stderr).toBe(1);
    const result = JSON.parse(run.stdout) as FineTuneJson;
    expect(result.status).toBe("failed");
    expect(result.error).toEqual({
      code: "over_budget",
      step: "Checking the device, memory and time",
      message: expect.stringMatching(/this run needs about [\d.]+ min( \(at the speed an earlier preflight measured on this computer at [^)]+\))? but the budget is [\d.]+ min; maxSteps \d+ would fit/) as string,
      fix: expect.stringContaining("maxSteps") as string,
      // The steps that fit, from the preflight's typed details; null when not one step fits.
      retry: result.error?.retry === null ? null : { maxSteps: expect.any(Number) as number },
    });
    // The progress line names the step that refused, not the phase's name.
    expect(run.stderr).toMatch(/\[failed\] Checking the device, memory and time/);
    const shown = await runCli(server.url, ["experiments", "show", result.experimentId]).done;
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('Failed at "Checking the device, memory and time": The data or settings cannot be used: this run needs about');
    expect(shown.stdout).toMatch(/What to do: .*maxSteps/);
    if (result.error?.retry) expect(shown.stdout).toContain(`with the same flags and --max-steps ${(result.error.retry as { maxSteps: number }).maxSteps}.`);
    const asJson = JSON.parse((await runCli(server.url, ["experiments", "show", result.experimentId, "--json"]).done).stdout) as FineTuneJson;
    expect(asJson.error).toEqual(result.error);
  });

  it("keeps a reserved holdout's prompts out of training and evaluation, in another format and case, and says how many", async () => {
    // Five of the training prompts as chat messages, shouted, with other answers: the same normalised prompts.
    const shouted = readFileSync(EXAMPLES, "utf8").trim().split("\n").slice(0, 5).map((line) => {
      const prompt = (JSON.parse(line) as { prompt: string }).prompt;
      return JSON.stringify({ messages: [{ role: "user", content: `  ${prompt.toUpperCase()}` }, { role: "assistant", content: "another answer" }] });
    });
    const file = path.join(home.scratch, "held-prompts.jsonl");
    writeFileSync(file, shouted.join("\n") + "\n");
    // The project the runs above made (made here when this test runs alone).
    const projects = await server.client.projects.list.query({ includeArchived: true });
    const project = projects.find((p) => p.name === "Default") ?? (await server.client.projects.create.mutate({ name: "Default" }));
    // Lines that are no examples are refused in the tools' words, and nothing is reserved.
    const notExamples = path.join(home.scratch, "not-examples.jsonl");
    writeFileSync(notExamples, '{"question": "no prompt here"}\n');
    const refused = await runCli(server.url, ["holdouts", "create", "--project", "Default", "--data", notExamples, "--json"]).done;
    expect(refused.code).toBe(1);
    expect(refused.stdout + refused.stderr).toContain("has no usable example");
    const reserved = await runCli(server.url, ["holdouts", "create", "--project", "Default", "--data", file, "--json"]).done;
    expect(reserved.code, reserved.stderr).toBe(0);
    const holdout = JSON.parse(reserved.stdout) as { id: string; kind: string; rows: number; columns: string[] };
    expect(holdout).toMatchObject({ kind: "examples", rows: 5, columns: [] });

    const run = await runCli(server.url, ["finetune", "--model", TINY_GPT2, "--data", EXAMPLES, ...SMALL_FLAGS, "--max-steps", "2", "--json"]).done;
    expect(run.code, run.stderr).toBe(0);
    const view = await server.client.finetune.get.query({ id: (JSON.parse(run.stdout) as FineTuneJson).experimentId });
    expect(view.checks?.holdout).toEqual({ holdouts: 1, removed: 5, lines: [1, 2, 3, 4, 5], rule: "normalised prompt" });
    expect(view.checks!.counts.train + view.checks!.counts.eval).toBe(view.checks!.lines.usable - 5);
    // Only the examples holdout was reserved (the refused file left nothing).
    expect((await server.client.holdouts.list.query({ projectId: project.id })).map((h) => h.kind)).toEqual(["examples"]);
    // The run ended: the holdout can go, and its prompts are given back.
    const deleted = await runCli(server.url, ["holdouts", "delete", holdout.id, "--json"]).done;
    expect(deleted.code, deleted.stderr).toBe(0);
  });
});
