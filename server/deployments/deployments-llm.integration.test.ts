/**
 * An LLM deployment through the real server, worker, llm-lora recipes and a serve-llm
 * process on the tiny random GPT-2: one 2-step fine-tune registered as version 1 and
 * deployed from the CLI (resident by default, its generate / stream URLs); generate and
 * stream through the public routes with a key (the deltas add up to the result's text,
 * one terminal event); a wrong, revoked or other deployment's key is refused; a client
 * that aborts mid-stream stops the generation in the serving process; /predict answers
 * 404 naming the routes to use; only aggregates are kept; a switch under a steady stream
 * of generate and stream requests loses none of them. Its OpenAI-compatible routes (/v1)
 * through OpenAI's official Python client (tests/protocol-clients/openai_client_check.py):
 * models, chat, completions, a streamed chat with usage, seeded sampling, stop sequences,
 * refusals as the client's own exception classes, a disconnect that stops the generation,
 * and the page's openai example run as written.
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { pythonOpenAiExample } from "@/components/deployments/route-examples";
import { ZDeploymentHealth, type DeploymentStreamEvent } from "@/contracts/deployments/serving";
import { readStreamEvents } from "@/contracts/deployments/stream-events";
import { allowedModelFolder, hasEnded, SMALL, uploadExamples, waitForFineTune } from "@/server/finetune/finetune-test-support";
import { realRecipesServerForBlock } from "@/server/testing/real-recipes-server";
import { runSchemathesis } from "@/server/testing/schemathesis";
import { REPO, waitFor } from "@/server/testing/server-harness";
import { protocolClientsPython, runToEnd } from "@/server/testing/test-venv";
import { call, cliJson } from "./test-support";

const MODEL = "Math helper";
const ZMade = z.object({ id: z.string().min(1), kind: z.literal("llm"), urls: z.strictObject({ generate: z.string(), stream: z.string(), health: z.string() }) });


const post = (url: string, key: string | null, body: unknown) =>
  fetch(url, { method: "POST", headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), "content-type": "application/json" }, body: JSON.stringify(body) });


/** Runs a check of tests/protocol-clients/openai_client_check.py with the openai client's venv; the JSON it printed. */
async function openAiCheck(check: string, args: string[]): Promise<Record<string, unknown>> {
  const out = await runToEnd(await protocolClientsPython(), [path.join(REPO, "tests/protocol-clients/openai_client_check.py"), check, ...args]);
  const line = out.trim().split("\n").reverse().find((l) => l.startsWith("{"));
  if (!line) throw new Error(`the openai check ${check} printed no result: ${out}`);
  return JSON.parse(line) as Record<string, unknown>;
}

/** Reads SSE blocks as they arrive; `until` may stop reading early (the caller then aborts). */
const readEvents = (res: Response, until?: (e: DeploymentStreamEvent) => boolean) => readStreamEvents(res.body!, until);

describe("a deployment of a LoRA fine-tune", { timeout: 300_000 }, () => {
  const { home, server } = realRecipesServerForBlock();
  let chat: z.infer<typeof ZMade>;
  let other: z.infer<typeof ZMade>;
  let key = "";
  let otherKey = "";

  const health = async () => ZDeploymentHealth.parse((await call(chat.urls.health, key)).body);

  beforeAll(async () => {
    const { model } = await allowedModelFolder(server, home);
    const projectId = (await server.client.projects.create.mutate({ name: "Default" })).id;
    const examples = await uploadExamples(server, projectId);
    const started = await server.client.finetune.start.mutate({
      opId: randomUUID(),
      projectId,
      datasetId: examples,
      settings: { base: { kind: "path", path: model }, ...SMALL, maxSteps: 2, maxMinutes: 5 },
    });
    const done = await waitForFineTune(server, started.experiment.id, "the fine-tune to end", hasEnded, 240_000);
    expect(done.experiment.status, done.experiment.reason ?? "").toBe("succeeded");
    await server.client.models.register.mutate({ experimentId: started.experiment.id, newModelName: MODEL });

    const made = await cliJson(server.url, ["deploy", `${MODEL}:1`, "--name", "chat"]);
    expect(made.code, made.stderr).toBe(0);
    expect(made.json).toMatchObject({ mode: "resident", kind: "llm", release: { number: 1, version: 1 } });
    chat = ZMade.parse(made.json);
    other = ZMade.parse((await cliJson(server.url, ["deploy", `${MODEL}:1`, "--name", "other"])).json);
    key = (await cliJson(server.url, ["deployments", "keys", "create", "chat"])).json.key as string;
    otherKey = (await cliJson(server.url, ["deployments", "keys", "create", "other"])).json.key as string;
    for (const d of [chat, other]) {
      await waitFor(`${d.id} to load`, async () => {
        const h = (await call(d.urls.health, d === chat ? key : otherKey)).body;
        if (h.state === "failed") throw new Error(`the LLM deployment failed: ${String(h.reason)}`);
        return h.state === "ready" ? h : undefined;
      }, 180_000, 300);
    }
  }, 300_000);
  afterAll(async () => {
    for (const name of ["chat", "other"]) await cliJson(server.url, ["deployments", "stop", name]).catch(() => undefined);
  });

  it("deploys resident from the CLI with its generate and stream URLs, and refuses on-demand mode", async () => {
    expect(chat.urls.generate).toBe(`${server.url}/api/deployments/${chat.id}/generate`);
    expect(chat.urls.stream).toBe(`${server.url}/api/deployments/${chat.id}/stream`);
    const onDemand = await cliJson(server.url, ["deploy", `${MODEL}:1`, "--mode", "on-demand", "--name", "od"]);
    expect(onDemand.code).not.toBe(0);
    expect(onDemand.json).toMatchObject({ error: { code: "resident_only" } });
  });

  it("generates text with a key, and refuses a body field by field", async () => {
    const r = await call(chat.urls.generate, key, { prompt: "What is 2 + 3?", maxNewTokens: 8 });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ release: { number: 1, version: 1 }, finishReason: expect.stringMatching(/^(stop|length)$/) });
    expect(r.body.generatedTokens).toBeGreaterThan(0);
    expect(r.body.generatedTokens).toBeLessThanOrEqual(8);
    const chatAnswer = await call(chat.urls.generate, key, { messages: [{ role: "user", content: "Hi" }], maxNewTokens: 4 });
    expect(chatAnswer.status, JSON.stringify(chatAnswer.body)).toBe(200);

    const bad = await call(chat.urls.generate, key, { messages: [{ role: "robot", content: "Hi" }], maxNewTokens: 0 });
    expect(bad.status).toBe(400);
    expect((bad.body.details as { fields: { path: string }[] }).fields.map((f) => f.path).sort()).toEqual(["maxNewTokens", "messages[0].role"]);
    expect((await call(chat.urls.generate, key, { prompt: "x", maxNewTokens: 100_000 })).status).toBe(413);
  });

  it("streams with a key: metadata first, deltas that add up to the result's text, exactly one terminal event", async () => {
    const res = await post(chat.urls.stream, key, { prompt: "What is 2 + 3?", maxNewTokens: 16 });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const events = await readEvents(res);
    // Public names only: the stream never shows a path of the serving computer.
    expect(events[0]).toMatchObject({ type: "metadata", release: { number: 1, version: 1 }, model: `${MODEL} v1` });
    expect(JSON.stringify(events)).not.toContain("/worker/");
    const terminals = events.filter((e) => e.type === "result" || e.type === "error");
    expect(terminals).toHaveLength(1);
    expect(events.at(-1)).toBe(terminals[0]);
    const result = terminals[0]!;
    if (result.type !== "result") throw new Error(`the stream ended in an error: ${JSON.stringify(result)}`);
    expect(events.flatMap((e) => (e.type === "delta" ? [e.text] : [])).join("")).toBe(result.text);
    expect(result.generatedTokens).toBeGreaterThan(0);
  });

  it("refuses no key, a wrong key, another deployment's key and a revoked key", async () => {
    for (const url of [chat.urls.generate, chat.urls.stream]) {
      expect((await call(url, null, { prompt: "x" })).status).toBe(401);
      expect((await call(url, `${key}x`, { prompt: "x" })).status).toBe(401);
      expect((await call(url, otherKey, { prompt: "x" })).status).toBe(401);
    }
    expect((await call(other.urls.generate, otherKey, { prompt: "x", maxNewTokens: 2 })).status).toBe(200);
    const spare = (await cliJson(server.url, ["deployments", "keys", "create", "other", "--name", "spare"])).json as { id: string; key: string };
    expect((await cliJson(server.url, ["deployments", "keys", "revoke", "other", spare.id])).code).toBe(0);
    expect((await call(other.urls.generate, spare.key, { prompt: "x" })).status).toBe(401);
  });

  it("is what its own OpenAPI document says: Schemathesis with its key finds every valid body answered, no 5xx, nothing outside the document", async () => {
    // On "other": the generated requests would otherwise count in chat's aggregates and monitor, which later tests read.
    const run = await runSchemathesis({ baseUrl: server.url, token: otherKey, documentPath: `/api/deployments/${other.id}/openapi.json`, maxExamples: 8, positiveAccepted: true });
    console.log(run.output.split("\n").filter((l) => /generated|Operations/i.test(l)).join("\n"));
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/Operations:\s+3 selected \/ 3 total/);
    expect(run.output).toMatch(/(\d{2,}) generated, \1 passed/);
  });

  it("stops generating in the serving process when the client aborts mid-stream", async () => {
    const abort = new AbortController();
    const res = await fetch(chat.urls.stream, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ prompt: "Count to a thousand.", maxNewTokens: 1000 }),
      signal: abort.signal,
    });
    expect(res.status).toBe(200);
    const seen = await readEvents(res, (e) => e.type === "delta");
    expect(seen.at(-1)?.type).toBe("delta");
    expect((await health()).serving).toEqual({ inFlight: 1, queued: 0 });
    abort.abort();
    const stoppedAfter = Date.now();
    await waitFor("the serving process to stop generating", async () => ((await health()).serving?.inFlight === 0 ? true : undefined), 10_000, 50);
    const stopMs = Date.now() - stoppedAfter;
    // The same request run to its end, for scale: the abort stopped it well before that.
    const t0 = Date.now();
    const full = await call(chat.urls.generate, key, { prompt: "Count to a thousand.", maxNewTokens: 1000 });
    const fullMs = Date.now() - t0;
    console.log(`abort → idle ${stopMs} ms; the whole generation (${String(full.body.generatedTokens)} tokens) ${fullMs} ms`);
    expect(full.body.finishReason).toBe("length");
    expect(stopMs).toBeLessThan(fullMs);
    const stats = (await server.client.deployments.show.query({ deploymentId: chat.id })).stats;
    expect(stats).toEqual([expect.objectContaining({ errors: expect.objectContaining({ cancelled: 1 }) })]);
  });

  it("answers /predict with 404 naming /generate and /stream, and keeps only aggregates", async () => {
    const r = await call(chat.urls.generate.replace(/generate$/, "predict"), key, { rows: [{ a: 1 }] });
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ code: "wrong_kind", details: { use: [chat.urls.generate.slice(server.url.length), chat.urls.stream.slice(server.url.length)] } });
    const shown = await server.client.deployments.show.query({ deploymentId: chat.id });
    const text = JSON.stringify(shown);
    expect(text).not.toContain("What is 2 + 3?");
    expect(text).not.toContain(key);
    expect(shown.stats[0]!.requests).toBeGreaterThanOrEqual(6);
  });

  it("a monitor watches its generations' lengths, speed and finish reason: its first full window is the reference, longer prompts drift", async () => {
    const made = await cliJson(server.url, ["monitors", "create", "chat", "--window-requests", "10", "--min-rows", "10"]);
    expect(made.code, made.stderr).toBe(0);
    const monitorId = made.json.id as string;
    expect(await server.client.monitors.show.query({ monitorId })).toMatchObject({ state: "watching", referenceWindow: null, health: "not_enough_traffic" });
    const ask = async (prompt: string, maxNewTokens: number) => expect((await call(chat.urls.generate, key, { prompt, maxNewTokens })).status).toBe(200);
    for (let i = 0; i < 20; i++) await ask("What is 2 + 3?", 4);
    const long = "alpha beta gamma ".repeat(60);
    for (let i = 0; i < 10; i++) await ask(long, 16);
    const checked = await cliJson(server.url, ["monitors", "check", monitorId]);
    const windows = z.object({ windows: z.array(z.object({ n: z.number(), verdict: z.string(), driftedColumns: z.array(z.string()) })) }).parse(checked.json).windows;
    // Window 1 is the reference (compared with itself), window 2 is the same traffic, window 3 the long prompts.
    expect(windows.slice(0, 3).map((w) => [w.n, w.verdict])).toEqual([[10, "ok"], [10, "ok"], [10, "drift"]]);
    expect(windows[2]!.driftedColumns).toContain("promptTokens");
    const shown = await server.client.monitors.show.query({ monitorId });
    expect(shown.referenceWindow).toBe(1);
    const reference = (await server.client.monitors.reference.query({ monitorId })).reference!;
    expect(reference.columns.map((c) => c.name)).toEqual(["promptTokens", "generatedTokens", "tokensPerSecond", "finishReason"]);
    expect(reference.rows).toBe(10);
    // Counts only: no prompt text in what the monitor stored.
    expect(JSON.stringify(shown)).not.toContain("alpha beta");
  });

  it("switches under a steady stream of generate and stream requests and loses none of them", async () => {
    // On "other", so the aggregates "chat" is checked for above stay its own.
    const outcomes: string[] = [];
    const released = new Set<number>();
    let switching = true;
    const once = async (i: number) => {
      if (i % 2 === 0) {
        const r = await call(other.urls.generate, otherKey, { prompt: "What is 2 + 3?", maxNewTokens: 4 });
        if (r.status === 200) released.add((r.body.release as { number: number }).number);
        return r.status === 200 ? "ok" : `generate ${r.status} ${JSON.stringify(r.body)}`;
      }
      const res = await post(other.urls.stream, otherKey, { prompt: "What is 2 + 3?", maxNewTokens: 4 });
      if (res.status !== 200) return `stream ${res.status} ${await res.text()}`;
      const events = await readEvents(res);
      const meta = events[0];
      if (meta?.type === "metadata") released.add(meta.release.number);
      const last = events.at(-1);
      return last?.type === "result" ? "ok" : `stream ended ${JSON.stringify(last)}`;
    };
    const load = (async () => {
      for (let i = 0; switching; i++) outcomes.push(await once(i));
    })();
    const rev = (await server.client.deployments.show.query({ deploymentId: other.id })).deployment.revision;
    const switched = await server.client.deployments.switch.mutate({ deploymentId: other.id, expectedRevision: rev, version: 1, why: "a new release under load" });
    expect(switched.release).toMatchObject({ number: 2 });
    await waitFor("the switch to end", async () => ((await call(other.urls.health, otherKey)).body.state === "ready" ? true : undefined), 180_000, 200);
    for (let i = 0; i < 4; i++) outcomes.push(await once(i));
    switching = false;
    await load;
    expect(outcomes.filter((o) => o !== "ok")).toEqual([]);
    expect(outcomes.length).toBeGreaterThan(6);
    expect([...released].sort()).toEqual([1, 2]);
  });

  describe("its OpenAI-compatible routes, through OpenAI's official Python client", () => {
    const base = () => `${server.url}/api/deployments/${chat.id}/v1`;
    type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- the client's model_dump(), checked field by field below

    it("answers models, a chat and a text completion, and a streamed chat whose deltas join to the same text with the usage last", async () => {
      const r = (await openAiCheck("basics", [base(), key])) as Json;
      expect(r.models).toEqual([expect.objectContaining({ id: "chat", object: "model", created: expect.any(Number), owned_by: "trainyard" })]);
      expect(r.chat).toMatchObject({ object: "chat.completion", model: "chat", system_fingerprint: "trainyard-release-1-version-1", choices: [{ index: 0, message: { role: "assistant" }, finish_reason: expect.stringMatching(/^(stop|length)$/) }] });
      const answer = r.chat.choices[0].message.content as string;
      expect(r.chat.usage.completion_tokens).toBeGreaterThan(0);
      expect(r.chat.usage.completion_tokens).toBeLessThanOrEqual(8);
      // temperature 0 is greedy: Trainyard's own /generate gives the same text.
      const own = await call(chat.urls.generate, key, { messages: [{ role: "user", content: "What is 2 + 3?" }], maxNewTokens: 8 });
      expect(own.body.text).toBe(answer);
      expect(r.completion).toMatchObject({ object: "text_completion", choices: [{ index: 0, text: expect.any(String) }] });

      const chunks = r.streamChunks as Json[];
      expect(chunks[0]!.choices[0].delta.role).toBe("assistant");
      const usageChunk = chunks.at(-1)!;
      expect(usageChunk.choices).toEqual([]);
      expect(usageChunk.usage).toEqual(r.chat.usage);
      const choiceChunks = chunks.slice(0, -1);
      expect(choiceChunks.at(-1)!.choices[0].finish_reason).toBe(r.chat.choices[0].finish_reason);
      expect(choiceChunks.slice(0, -1).every((c) => c.choices[0].finish_reason === null && c.usage === null)).toBe(true);
      expect(choiceChunks.map((c) => (c.choices[0].delta.content as string | null) ?? "").join("")).toBe(answer);
      expect(r.streamedCompletionText).toBe(r.completion.choices[0].text);
    });

    it("samples reproducibly with a seed, and ends the text before a stop sequence", async () => {
      const r = (await openAiCheck("sampling", [base(), key])) as Json;
      expect(r.again).toEqual(r.first);
      expect(new Set([...(r.others as string[]), r.first.text]).size).toBeGreaterThan(1);
      expect(r.stop, `a sampled answer of at least 4 characters: ${JSON.stringify(r.first)}`).toEqual(expect.any(String));
      const text = r.first.text as string;
      expect(r.cut).toMatchObject({ text: text.slice(0, text.indexOf(r.stop as string)), finish: "stop" });
    });

    it("refuses in OpenAI's error shape, so the client raises its own exception classes naming the parameter", async () => {
      const r = (await openAiCheck("errors", [base(), key, otherKey])) as Json;
      expect(r.wrongKey).toMatchObject({ class: "AuthenticationError", status: 401, code: "invalid_api_key", type: "invalid_request_error" });
      expect(r.otherKey).toMatchObject({ class: "AuthenticationError", status: 401 });
      expect(r.tools).toMatchObject({ class: "BadRequestError", status: 400, param: "tools", code: "unsupported_parameter", type: "invalid_request_error" });
      expect(r.logprobs).toMatchObject({ class: "BadRequestError", param: "logprobs" });
      expect(r.n).toMatchObject({ class: "BadRequestError", param: "n" });
      expect(r.badRole).toMatchObject({ class: "BadRequestError", param: "messages[0].role" });
      expect(r.unknownField).toMatchObject({ class: "BadRequestError", param: "frobnicate" });
      expect(r.tooManyTokens).toMatchObject({ class: "BadRequestError", param: "max_tokens" });
      expect(r.otherModel).toMatchObject({ class: "NotFoundError", status: 404, code: "model_not_found", param: "model" });

      // The guard's own refusals on these paths: no key, a body over its limit.
      const openAiShape = { error: { message: expect.any(String), type: "invalid_request_error", param: null, code: expect.any(String) } };
      expect(await call(`${base()}/models`, null)).toEqual({ status: 401, body: openAiShape });
      const huge = await call(`${base()}/chat/completions`, key, { model: "chat", messages: [{ role: "user", content: "x".repeat(300 * 1024) }] });
      expect(huge).toEqual({ status: 413, body: openAiShape });
    });

    it("stops generating in the serving process when the client closes the stream", async () => {
      const cancelled = async () => (await server.client.deployments.show.query({ deploymentId: chat.id })).stats[0]!.errors.cancelled ?? 0;
      const before = await cancelled();
      const r = (await openAiCheck("disconnect", [base(), key, chat.urls.health])) as Json;
      console.log(`openai client closed its stream → serving process idle after ${String(r.idleAfterMs)} ms`);
      expect(r).toMatchObject({ busyWhileStreaming: 1, idle: true });
      await waitFor("the cancel to be counted", async () => ((await cancelled()) === before + 1 ? true : undefined), 10_000, 100);
    });

    it("runs the page's openai example as written: it prints the answer", async () => {
      const shown = (await server.client.deployments.show.query({ deploymentId: chat.id })).deployment;
      const code = pythonOpenAiExample(server.url, shown.routes.openai, key);
      const out = await runToEnd(await protocolClientsPython(), ["-c", code]);
      expect(out.trim().length, out).toBeGreaterThan(0);
    });

    it("answers a stopped deployment 503 not_ready in OpenAI's shape", async () => {
      expect((await cliJson(server.url, ["deployments", "stop", "other"])).code).toBe(0);
      const r = await call(`${server.url}/api/deployments/${other.id}/v1/chat/completions`, otherKey, { model: "other", messages: [{ role: "user", content: "hi" }], max_tokens: 2 });
      expect(r).toMatchObject({ status: 503, body: { error: { type: "server_error", code: "not_ready" } } });
    });
  });
});
