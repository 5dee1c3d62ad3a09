/**
 * generate and stream on an LLM deployment: the body checked (generate-request.ts), then
 * answered by the release's resident serving process over its socket. The stream is the
 * process's Server-Sent Events re-sent with the release named as /predict names it and the
 * result carrying the whole text; a refusal before the first event is an HTTP status, not
 * an event. The caller's abort (the client went away) aborts the upstream request, which
 * closes the socket connection and so stops the generation in the serving process. Each
 * request counts in the release's aggregates; no prompt or output is kept.
 *
 * A switch makes the candidate current and then stops the old process: a request that
 * picked the old release just before may find it gone. Until it has sent the client a
 * byte it is asked once more of the release now current (a generation has no side effect);
 * a stream already sending is not retried: it ends with an `error` event (`release_changed`).
 *
 * Another protocol on the same routes (OpenAI's /v1, server/protocols/openai) comes through
 * here too, as a GenerateProtocol: its body mapped to a generate request and its stream
 * written in its own wire format, with the same limits, retries, cancel and counts.
 */
import type { DeploymentGenerateRequest, DeploymentGenerateResponse, DeploymentStreamEvent } from "@/contracts/deployments/serving";
import { sseBlock } from "@/contracts/deployments/stream-events";
import type { Db } from "@/server/db/client";
import { isDomainError, unavailable } from "@/server/errors";
import { recordRequest } from "./deployment-stats";
import { deploymentKind } from "./release-kind";
import type { ReleaseView } from "./deployments.schema";
import { checkGenerate } from "./generate-request";
import { LLM_MAX_NEW_TOKENS, clientFor } from "./resident-serving";
import { current, servingNow, servingRefusal, short, wrongRoute } from "./serve-request";
import type { Refused, ServingClient } from "./serving-client";
import { linkRefusal, noteAnswered, noteFailure } from "./serving-link";
import { deploymentsRepository } from "./deployments.repository";

type Upstream = Parameters<ServingClient["generate"]>[0];
type StreamEvent = Parameters<Parameters<ServingClient["stream"]>[1]>[0];

const upstreamBody = ({ prompt, messages, ...rest }: DeploymentGenerateRequest): Upstream => (messages ? { messages, ...rest } : { prompt: prompt ?? "", ...rest });

/**
 * Another protocol's view of these routes: how its body becomes a generate request (its
 * refusals thrown as domain errors, counted as a bad body is), and how each stream event is
 * written on its wire. Absent: Trainyard's own body and Server-Sent Events.
 */
export interface GenerateProtocol {
  /** The generate request of a body sent to the deployment of this public name; throws what the route answers. */
  toRequest(body: unknown, deployment: { name: string }): unknown;
  /** One stream event as the bytes to send ("" for none); the stream only. */
  render?(e: DeploymentStreamEvent): string;
}

const unreachable = (err: unknown) => (isDomainError(err) ? err : unavailable(`The serving process did not answer: ${(err as Error).message}`));

/**
 * Whether a failure before any byte reached the client may be asked of another release:
 * the process was gone or not reachable (a thrown error), or answered not ready (503).
 * A refusal of the request itself (400, 413, 429, 504) would be the same anywhere.
 */
const mayRetry = (failure: Refused | Error) => (failure instanceof Error ? true : failure.status === 503);

interface LlmRequest {
  deploymentId: string;
  /** The registered model's public name: what the stream's metadata names (never a path of the serving process). */
  modelName: string;
  release: ReleaseView;
  request: Upstream;
  record: (release: ReleaseView, ms: number, errorClass?: string, answered?: Answered) => Promise<void>;
}

type Answered = Pick<DeploymentGenerateResponse, "promptTokens" | "generatedTokens" | "finishReason">;

/**
 * An answered generation as its request's only "row" for the request observers (monitors):
 * how long its prompt and answer were, how fast, how it ended; never the text.
 */
const descriptorsOf = (a: Answered, ms: number) => ({
  promptTokens: a.promptTokens,
  generatedTokens: a.generatedTokens,
  tokensPerSecond: ms > 0 ? a.generatedTokens / (ms / 1000) : null,
  finishReason: a.finishReason,
});

/** The ready LLM release a request goes to, and its checked body; throws what the route answers. */
async function llmRequest(db: Db, id: string, body: unknown, protocol?: GenerateProtocol): Promise<LlmRequest> {
  const { d, release } = await servingNow(db, id);
  const record = (r: ReleaseView, ms: number, errorClass?: string, answered?: Answered) =>
    recordRequest(db, { releaseId: r.id, deploymentId: d.id, ms, errorClass }, new Date(), answered ? [descriptorsOf(answered, ms)] : null);
  try {
    if ((await deploymentKind(db, d)) !== "llm") throw wrongRoute(d.id, "tabular");
    const refused = linkRefusal(d.id);
    if (refused) throw refused;
    const model = await deploymentsRepository(db).modelName(d.modelId);
    const asked = protocol ? protocol.toRequest(body, { name: d.name }) : body;
    return { deploymentId: d.id, modelName: model?.name ?? d.name, release, record, request: upstreamBody(checkGenerate(asked, { maxNewTokens: LLM_MAX_NEW_TOKENS })) };
  } catch (err) {
    await record(release, 0, isDomainError(err) ? err.reason : "internal");
    throw err;
  }
}

/** The release now current when it is another than `tried` (the one a failed attempt went to). */
async function otherCurrent(db: Db, deploymentId: string, tried: ReleaseView): Promise<ReleaseView | null> {
  const now = (await current(db, deploymentId)).release;
  return now && now.id !== tried.id ? now : null;
}

export async function generate(db: Db, id: string, body: unknown, signal?: AbortSignal, protocol?: GenerateProtocol): Promise<DeploymentGenerateResponse> {
  const started = Date.now();
  const r = await llmRequest(db, id, body, protocol);
  const attempt = async (release: ReleaseView) => {
    try {
      const answer = await (await clientFor(db, release.id)).generate(r.request, { signal });
      noteAnswered(r.deploymentId);
      return answer;
    } catch (err) {
      if (signal?.aborted) throw err;
      return noteFailure(r.deploymentId, release.id, err as Error);
    }
  };
  let release = r.release;
  try {
    let answer = await attempt(release);
    const failed = answer instanceof Error || !answer.ok ? answer : null;
    const next = failed && mayRetry(failed) && !signal?.aborted ? await otherCurrent(db, r.deploymentId, release) : null;
    if (next) answer = await attempt((release = next));
    if (answer instanceof Error) throw unreachable(answer);
    if (!answer.ok) throw servingRefusal(answer);
    await r.record(release, Date.now() - started, undefined, answer.value);
    return { ...answer.value, release: short(release) };
  } catch (err) {
    await r.record(release, Date.now() - started, signal?.aborted ? "cancelled" : isDomainError(err) ? err.reason : "internal");
    throw err;
  }
}

/** How one upstream stream went: refused or failed before its first event, or started. */
type Opened = { started: true } | { started: false; failure: Refused | Error };

/**
 * Opens the stream: resolves with the SSE body once a serving process sent its first
 * event, or throws its refusal (429, 400, …) before anything was sent. `signal` is the
 * client's; a cancelled body (the client stopped reading) aborts the same way.
 */
export async function openStream(db: Db, id: string, body: unknown, signal: AbortSignal, protocol?: GenerateProtocol): Promise<ReadableStream<Uint8Array>> {
  const started = Date.now();
  const r = await llmRequest(db, id, body, protocol);
  const render = protocol?.render ?? sseBlock;
  const upstream = new AbortController();
  const abort = () => upstream.abort();
  signal.addEventListener("abort", abort, { once: true });
  const encoder = new TextEncoder();
  let out!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (out = c), cancel: abort });
  const send = (e: DeploymentStreamEvent) => {
    const wire = upstream.signal.aborted ? "" : render(e);
    if (wire) out.enqueue(encoder.encode(wire));
  };
  const finish = async (release: ReleaseView, errorClass: string | undefined, answered?: Answered) => {
    signal.removeEventListener("abort", abort);
    // The answer is sent whatever happens to its count; a count that could not be written is said in the log.
    await r
      .record(release, Date.now() - started, upstream.signal.aborted ? "cancelled" : errorClass, answered)
      .catch((err: unknown) => console.error(`deployment ${r.deploymentId}: counting a stream failed: ${(err as Error).message}`));
    try {
      out.close();
    } catch {
      // Already cancelled by the client.
    }
  };

  /** One upstream stream from `release`; its events go to the client once it has started. */
  const streamFrom = (release: ReleaseView): Promise<Opened> =>
    new Promise<Opened>((opened) => {
      let open = false;
      let text = "";
      let outcome: string | undefined = "no_result";
      let answered: Answered | undefined;
      const onEvent = (e: StreamEvent) => {
        if (!open) noteAnswered(r.deploymentId);
        open = true;
        opened({ started: true });
        if (e.type === "metadata") send({ type: "metadata", release: short(release), model: `${r.modelName} v${release.version}` });
        else if (e.type === "delta") {
          text += e.text;
          send(e);
        } else if (e.type === "result") {
          outcome = undefined;
          answered = e;
          send({ ...e, text });
        } else {
          if (e.type === "error") outcome = e.code;
          send(e);
        }
      };
      const failedMidStream = async (err: Error) => {
        // The client gets its error event and the stream ends even when the switch cannot be read.
        const next = upstream.signal.aborted
          ? null
          : await otherCurrent(db, r.deploymentId, release).catch((e: unknown) => {
              console.error(`deployment ${r.deploymentId}: reading its current release after a stream broke failed: ${(e as Error).message}`);
              return null;
            });
        if (next) send({ type: "error", code: "release_changed", message: `The deployment switched to release ${next.number} while this stream was being sent from release ${release.number}; send the request again.` });
        else send({ type: "error", code: "unavailable", message: `The serving process stopped answering: ${err.message}` });
        await finish(release, next ? "release_changed" : "unavailable");
      };
      void clientFor(db, release.id)
        .then((client) => client.stream(r.request, onEvent, { signal: upstream.signal }))
        .then(
          async (answer) => {
            if (!answer.ok) return opened({ started: false, failure: answer });
            if (answer.value.terminal === null) send({ type: "error", code: "internal", message: "The serving process ended the stream without a result." });
            await finish(release, outcome, answered);
          },
          async (err: unknown) => {
            if (open) return failedMidStream(err as Error);
            opened({ started: false, failure: upstream.signal.aborted ? (err as Error) : noteFailure(r.deploymentId, release.id, err as Error) });
          },
        );
    });

  let release = r.release;
  let first = await streamFrom(release);
  if (!first.started && mayRetry(first.failure) && !upstream.signal.aborted) {
    const next = await otherCurrent(db, r.deploymentId, release);
    if (next) first = await streamFrom((release = next));
  }
  if (first.started) return stream;
  signal.removeEventListener("abort", abort);
  const err = first.failure instanceof Error ? (upstream.signal.aborted ? first.failure : unreachable(first.failure)) : servingRefusal(first.failure);
  await r.record(release, Date.now() - started, upstream.signal.aborted ? "cancelled" : isDomainError(err) ? err.reason : "internal");
  throw err;
}
