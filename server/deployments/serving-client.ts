/**
 * The controller's side of contracts/deployments/serving.ts: HTTP/1.1 to a resident serving
 * process over its Unix socket on This computer, or over any duplex stream to that socket
 * (on an SSH computer: ssh2's `openssh_forwardOutStreamLocal(socketPath, cb)` gives one), so
 * no TCP port is ever opened. Every answer is parsed with the contract's schemas; anything
 * else is a ServingProtocolError, and a socket nobody listens on is ServingUnreachable.
 */
import http from "node:http";
import type { Duplex } from "node:stream";
import type { z } from "zod";
import {
  ZServeGenerateResponse,
  ZServePredictResponse,
  ZServeStreamEvent,
  ZServingError,
  ZServingHealth,
  type ServeGenerateRequest,
  type ServeStreamEvent,
  type ServingError,
  type ServingHealth,
} from "@/contracts/deployments/serving";

/**
 * Where the serving process is: its socket path here, or a way to open a stream to it.
 * `link` names the SSH computer a stream goes through: a stream that does not open within
 * the call's timeout then means the link, not the process (LinkDown).
 */
export type ServingTarget = { socketPath: string } | { openStream: () => Promise<Duplex>; link?: string };

import { LinkDown, ServingUnreachable } from "@/server/targets/socket-errors";

export { LinkDown, ServingUnreachable };
/** It answered something that is not the serving protocol. */
export class ServingProtocolError extends Error {
  override name = "ServingProtocolError";
}

/** A refusal the process answered with (ZServingError), its status and Retry-After. */
export interface Refused {
  ok: false;
  status: number;
  error: ServingError["error"];
  retryAfterSeconds: number | null;
}
export type Answer<T> = { ok: true; value: T } | Refused;

export interface CallOptions {
  /** Give up (ServingUnreachable) after this long without a complete answer; default 120 s. */
  timeoutMs?: number;
  /** Aborting closes the connection, which cancels a generation in the serving process. */
  signal?: AbortSignal;
}

const DEFAULT_TIMEOUT_MS = 120_000;

export class ServingClient {
  constructor(private readonly target: ServingTarget) {}

  health(opts?: CallOptions): Promise<Answer<ServingHealth>> {
    return this.json("GET", "/health", undefined, ZServingHealth, opts);
  }

  predict(body: { rows: Array<Record<string, string | number | boolean | null>> }, opts?: CallOptions) {
    return this.json("POST", "/predict", body, ZServePredictResponse, opts);
  }

  generate(body: ServeGenerateRequest, opts?: CallOptions) {
    return this.json("POST", "/generate", body, ZServeGenerateResponse, opts);
  }

  /**
   * POST /stream: `onEvent` gets each event in order (metadata, deltas, heartbeats, then one
   * result or error). Resolves once the stream ends; a refusal before it starts is `Refused`.
   */
  async stream(body: Parameters<ServingClient["generate"]>[0], onEvent: (e: ServeStreamEvent) => void, opts?: CallOptions): Promise<Answer<{ terminal: ServeStreamEvent | null }>> {
    const res = await this.send("POST", "/stream", body, opts);
    if (res.statusCode !== 200) return refusal(res, await readAll(res));
    let terminal: ServeStreamEvent | null = null;
    let pending = "";
    res.setEncoding("utf8");
    for await (const chunk of res as AsyncIterable<string>) {
      pending += chunk;
      let cut: number;
      while ((cut = pending.indexOf("\n\n")) >= 0) {
        const event = parseEvent(pending.slice(0, cut));
        pending = pending.slice(cut + 2);
        if (event.type === "result" || event.type === "error") terminal = event;
        onEvent(event);
      }
    }
    return { ok: true, value: { terminal } };
  }

  private async json<S extends z.ZodType>(method: string, path: string, body: unknown, schema: S, opts?: CallOptions): Promise<Answer<z.infer<S>>> {
    const res = await this.send(method, path, body, opts);
    const text = await readAll(res);
    if (res.statusCode !== 200) return refusal(res, text);
    const parsed = schema.safeParse(parseJson(text));
    if (!parsed.success) throw new ServingProtocolError(`${path} answered 200 with a body that is not the contract's: ${parsed.error.message.slice(0, 300)}`);
    return { ok: true, value: parsed.data };
  }

  private send(method: string, path: string, body: unknown, opts: CallOptions = {}): Promise<http.IncomingMessage> {
    const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body), "utf8");
    const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const target = this.target;
    return new Promise((resolve, reject) => {
      const options: http.RequestOptions = {
        method,
        path,
        headers: { host: "serving", ...(data ? { "content-type": "application/json", "content-length": data.length } : {}) },
        signal: opts.signal,
      };
      let req: http.ClientRequest | null = null;
      let timedOut = false;
      // Counts from before the stream opens: a silent SSH link must not hold the call past it.
      const timer = setTimeout(() => {
        timedOut = true;
        const why = `no answer to ${method} ${path} within ${timeoutMs} ms`;
        if (req) req.destroy(new ServingUnreachable(why));
        else reject("link" in target && target.link ? new LinkDown(`${target.link} did not give a stream to the serving socket within ${timeoutMs} ms`) : new ServingUnreachable(why));
      }, timeoutMs);
      const start = (stream?: Duplex) => {
        if (opts.signal?.aborted) {
          clearTimeout(timer);
          stream?.destroy();
          return reject(opts.signal.reason as Error);
        }
        // createConnection is used only without an agent; a socket path gets a fresh one (agent: false).
        const r = http.request(stream ? { ...options, createConnection: () => stream as never } : { ...options, agent: false, socketPath: (target as { socketPath: string }).socketPath });
        req = r;
        r.on("response", (res) => {
          res.once("close", () => clearTimeout(timer));
          resolve(res);
        });
        r.on("error", (err) => {
          clearTimeout(timer);
          reject(err instanceof ServingUnreachable || (err as Error).name === "AbortError" ? err : new ServingUnreachable(`${method} ${path}: ${(err as Error).message}`));
        });
        r.end(data);
      };
      if ("socketPath" in target) return start();
      target.openStream().then(
        (stream) => {
          // Opened after the timeout already answered: nobody reads it.
          if (timedOut) stream.destroy();
          else start(stream);
        },
        (err: Error) => {
          clearTimeout(timer);
          reject(err instanceof ServingUnreachable ? err : new ServingUnreachable(`could not open a stream to the serving socket: ${err.message}`));
        },
      );
    });
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ServingProtocolError(`the serving process answered something that is not JSON: ${text.slice(0, 200)}`);
  }
}

function refusal(res: http.IncomingMessage, text: string): Refused {
  const parsed = ZServingError.safeParse(parseJson(text));
  if (!parsed.success) throw new ServingProtocolError(`status ${res.statusCode} with a body that is not a serving error: ${text.slice(0, 200)}`);
  const retry = Number(res.headers["retry-after"]);
  return { ok: false, status: res.statusCode ?? 0, error: parsed.data.error, retryAfterSeconds: Number.isFinite(retry) && retry > 0 ? retry : null };
}

/** One SSE block: `event: <type>` and `data: <json of the rest>`. */
function parseEvent(block: string): ServeStreamEvent {
  const fields = new Map<string, string>();
  for (const line of block.split("\n")) {
    const at = line.indexOf(": ");
    if (at > 0) fields.set(line.slice(0, at), line.slice(at + 2));
  }
  const parsed = ZServeStreamEvent.safeParse({ type: fields.get("event"), ...(parseJson(fields.get("data") ?? "") as object) });
  if (!parsed.success) throw new ServingProtocolError(`a stream event that is not the contract's: ${block.slice(0, 200)}`);
  return parsed.data;
}

async function readAll(res: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of res) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
