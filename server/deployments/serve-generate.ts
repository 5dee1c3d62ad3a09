/**
 * generate and stream on an LLM deployment: the body checked (generate-request.ts), then
 * answered by the release's resident serving process over its socket. The stream is the
 * process's Server-Sent Events re-sent with the release named as /predict names it and the
 * result carrying the whole text; a refusal before the first event is an HTTP status, not
 * an event. The caller's abort (the client went away) aborts the upstream request, which
 * closes the socket connection and so stops the generation in the serving process. Each
 * request counts in the release's aggregates; no prompt or output is kept.
 */
import type { DeploymentGenerateRequest, DeploymentGenerateResponse, DeploymentStreamEvent } from "@/contracts/deployments/serving";
import type { Db } from "@/server/db/client";
import { isDomainError, unavailable } from "@/server/errors";
import { recordRequest } from "./deployment-stats";
import { deploymentKind } from "./deployment-views";
import { checkGenerate } from "./generate-request";
import { LLM_MAX_NEW_TOKENS, clientFor } from "./resident-serving";
import { answersRequests, current, notReady, servingRefusal, short, wrongRoute } from "./serve-request";
import type { Refused, ServingClient } from "./serving-client";

type Upstream = Parameters<ServingClient["generate"]>[0];

const upstreamBody = (r: DeploymentGenerateRequest): Upstream =>
  r.messages ? { messages: r.messages, maxNewTokens: r.maxNewTokens } : { prompt: r.prompt ?? "", maxNewTokens: r.maxNewTokens };

const unreachable = (err: unknown) => unavailable(`The serving process did not answer: ${(err as Error).message}`);

/** The ready LLM release a request goes to, and its checked body; throws what the route answers. */
async function llmRequest(db: Db, id: string, body: unknown) {
  const { d, release } = await current(db, id);
  if (!answersRequests(d.state) || !release) throw notReady(d.name, d.state, d.reason);
  const record = (ms: number, errorClass?: string) => recordRequest(db, { releaseId: release.id, deploymentId: d.id, ms, errorClass });
  try {
    if ((await deploymentKind(db, d)) !== "llm") throw wrongRoute(d.id, "tabular");
    return { release, record, request: upstreamBody(checkGenerate(body, { maxNewTokens: LLM_MAX_NEW_TOKENS })), client: await clientFor(db, release.id) };
  } catch (err) {
    await record(0, isDomainError(err) ? err.reason : "internal");
    throw err;
  }
}

export async function generate(db: Db, id: string, body: unknown, signal?: AbortSignal): Promise<DeploymentGenerateResponse> {
  const started = Date.now();
  const { release, record, request, client } = await llmRequest(db, id, body);
  try {
    const answer = await client.generate(request, { signal }).catch((err: unknown) => {
      throw signal?.aborted ? err : unreachable(err);
    });
    if (!answer.ok) throw servingRefusal(answer);
    await record(Date.now() - started);
    return { ...answer.value, release: short(release) };
  } catch (err) {
    await record(Date.now() - started, signal?.aborted ? "cancelled" : isDomainError(err) ? err.reason : "internal");
    throw err;
  }
}

/** `event: <type>` and `data: <json of the rest>`, as the serving process writes them. */
export function sseBlock(e: DeploymentStreamEvent): string {
  const { type, ...rest } = e;
  return `event: ${type}\ndata: ${JSON.stringify(rest)}\n\n`;
}

/**
 * Opens the stream: resolves with the SSE body once the serving process sent its first
 * event, or throws its refusal (429, 400, …) before anything was sent. `signal` is the
 * client's; a cancelled body (the client stopped reading) aborts the same way.
 */
export async function openStream(db: Db, id: string, body: unknown, signal: AbortSignal): Promise<ReadableStream<Uint8Array>> {
  const started = Date.now();
  const { release, record, request, client } = await llmRequest(db, id, body);
  const upstream = new AbortController();
  const abort = () => upstream.abort();
  signal.addEventListener("abort", abort, { once: true });
  const encoder = new TextEncoder();
  let out!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (out = c), cancel: abort });
  let open = false;
  const send = (e: DeploymentStreamEvent) => {
    if (!upstream.signal.aborted) out.enqueue(encoder.encode(sseBlock(e)));
  };
  let text = "";
  let outcome: string | undefined = "no_result";

  let opened!: (refused: Refused | Error | null) => void;
  const first = new Promise<Refused | Error | null>((r) => (opened = r));
  const onEvent = (e: Parameters<Parameters<ServingClient["stream"]>[1]>[0]) => {
    open = true;
    opened(null);
    if (e.type === "metadata") send({ type: "metadata", release: short(release), model: e.model });
    else if (e.type === "delta") {
      text += e.text;
      send(e);
    } else if (e.type === "result") {
      outcome = undefined;
      send({ ...e, text });
    } else {
      if (e.type === "error") outcome = e.code;
      send(e);
    }
  };
  const finish = async (errorClass: string | undefined) => {
    signal.removeEventListener("abort", abort);
    await record(Date.now() - started, upstream.signal.aborted ? "cancelled" : errorClass).catch(() => undefined);
    try {
      out.close();
    } catch {
      // Already cancelled by the client.
    }
  };
  void client.stream(request, onEvent, { signal: upstream.signal }).then(
    async (answer) => {
      if (!answer.ok) return opened(answer);
      if (answer.value.terminal === null) send({ type: "error", code: "internal", message: "The serving process ended the stream without a result." });
      await finish(outcome);
    },
    async (err: unknown) => {
      if (!open) return opened(err as Error);
      send({ type: "error", code: "unavailable", message: `The serving process stopped answering: ${(err as Error).message}` });
      await finish("unavailable");
    },
  );
  const refused = await first;
  if (refused) {
    signal.removeEventListener("abort", abort);
    const err = refused instanceof Error ? (upstream.signal.aborted ? refused : unreachable(refused)) : servingRefusal(refused);
    await record(Date.now() - started, upstream.signal.aborted ? "cancelled" : isDomainError(err) ? err.reason : "internal");
    throw err;
  }
  return stream;
}
