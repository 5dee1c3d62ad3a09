// JSONL files of fine-tuning examples through the real server, the real worker and the
// real llm-lora recipe's profile_examples job: the upload makes an "examples" dataset (by
// its name or by kind=examples), its profile is examples.json (never the table profiler),
// its preview shows conversations, and everything that needs a table refuses it.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTestHome, REPO, type TestHome, type TestServer } from "@/server/testing/server-harness";
import { incomingLeftovers, startDataServer, TABULAR, upload, waitForProfile } from "./test-support";

const FIXTURES = path.join(REPO, "training", "recipes", "llm_lora", "tests", "fixtures");
const chat = readFileSync(path.join(FIXTURES, "gsm8k-chat.jsonl"), "utf8");
const promptCompletion = readFileSync(path.join(FIXTURES, "gsm8k-prompt-completion.jsonl"), "utf8");

let home: TestHome;
let server: TestServer;
let projectId: string;

beforeAll(async () => {
  home = makeTestHome();
  server = await startDataServer(home, { recipes: ["data", "llm_lora", "export"] });
  projectId = (await server.client.projects.create.mutate({ name: "Fine-tuning data" })).id;
}, 300_000);
afterAll(async () => {
  await server?.stop();
});

async function refusal(call: Promise<unknown>): Promise<string> {
  try {
    await call;
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error("expected a refusal");
}

describe("a JSONL file of examples", () => {
  it("becomes an examples dataset profiled by profile_examples, with conversations in its preview", async () => {
    const lines = chat.trim().split("\n");
    const text = [...lines.slice(0, 6), "{not json", lines[0]!].join("\n") + "\n";
    const res = await upload(server, projectId, "gsm8k-chat.jsonl", text);
    expect(res.status).toBe(201);
    const d = await waitForProfile(server, res.body.datasetId!);
    expect(d.status, JSON.stringify(d.error)).toBe("ready");
    expect(d.kind).toBe("examples");
    expect(d.profile).toBeNull();
    expect(d.examples?.formats).toEqual(["chat"]);
    expect(d.examples?.lines.usable).toBe(7);
    expect(d.examples?.lines.problems.lines).toEqual([expect.objectContaining({ line: 7 })]);
    expect(d.examples?.duplicates.first).toEqual([{ line: 8, duplicateOf: 1 }]);
    expect(d.rowCount).toBe(7);

    const job = await server.client.jobs.get.query({ id: d.profileJobId! });
    expect(`${job.recipe}.${job.jobName}`).toBe("llm-lora.profile_examples");

    const preview = await server.client.datasets.preview.query({ id: d.id });
    expect(preview.kind).toBe("examples");
    expect(preview.conversations).toHaveLength(5);
    expect(preview.conversations[0]).toEqual({ line: 1, messages: JSON.parse(lines[0]!).messages });
    expect(preview.note).toContain("7 usable examples (chat)");

    const listed = await server.client.datasets.list.query({ projectId });
    expect(listed.find((x) => x.id === d.id)?.kind).toBe("examples");
  }, 180_000);

  it("is an examples dataset by kind=examples whatever its name, and a table dataset stays a table", async () => {
    const res = await upload(server, projectId, "train-data.txt", promptCompletion, "utf-8", "examples");
    expect(res.status).toBe(201);
    const d = await waitForProfile(server, res.body.datasetId!);
    expect(d).toMatchObject({ kind: "examples", status: "ready" });
    expect(d.examples?.formats).toEqual(["prompt_completion"]);

    const table = await upload(server, projectId, "penguins.csv", readFileSync(path.join(TABULAR, "penguins.csv")));
    expect((await server.client.datasets.get.query({ id: table.body.datasetId! })).kind).toBe("table");
  }, 180_000);

  it("is refused by every table-only step with what it is for", async () => {
    const res = await upload(server, projectId, "gsm8k-pc.jsonl", promptCompletion.split("\n").slice(0, 3).join("\n"));
    const id = (await waitForProfile(server, res.body.datasetId!)).id;
    const forFineTuning = /is a file of examples for fine-tuning a language model, not a table/;
    expect(await refusal(server.client.datasets.startChecks.mutate({ id, target: "prompt" }))).toMatch(forFineTuning);
    expect(await refusal(server.client.datasets.split.mutate({ datasetId: id, target: "prompt", task: "binary", strategy: "random" }))).toMatch(forFineTuning);
    expect(await refusal(server.client.experiments.targetOptions.query({ datasetId: id }))).toMatch(forFineTuning);
    const start = server.client.experiments.start.mutate({ opId: randomUUID(), projectId, datasetId: id, settings: { target: "prompt", task: "binary", metric: "accuracy", mode: "quick" } });
    expect(await refusal(start)).toMatch(forFineTuning);
  }, 180_000);

  it("with no usable example fails its profile with the recipe's reason; a one-line file is not 'header only'", async () => {
    const bad = await upload(server, projectId, "broken.jsonl", '{"text": "no prompt here"}\n[1, 2]\n');
    expect(bad.status).toBe(201);
    const d = await waitForProfile(server, bad.body.datasetId!);
    expect(d.status).toBe("failed");
    expect(d.error?.code).toBe("no_usable_example");
    expect(d.error?.message).toMatch(/no usable example \(line 1/);

    const one = await upload(server, projectId, "one.jsonl", '{"prompt": "2+2, then 3+3, then 4+4?", "completion": "4, 6, 8"}\n');
    expect(one.status).toBe(201);
    expect((await waitForProfile(server, one.body.datasetId!)).status).toBe("ready");
  }, 180_000);

  it("refuses a binary or compressed .jsonl while it arrives, storing nothing", async () => {
    const gz = await upload(server, projectId, "data.jsonl", new Uint8Array([0x1f, 0x8b, 0x08, 0x00, 0x01]));
    expect(gz.status).toBe(400);
    expect(gz.body.error).toMatch(/gzip-compressed, not a JSONL text file/);
    expect(incomingLeftovers(home)).toEqual([]);
  });
});
