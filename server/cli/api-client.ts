/**
 * The CLI's connection to a running server: tRPC over HTTP (TRAINYARD_URL, bearer token
 * from TRAINYARD_TOKEN). Every request has a time limit (a server that accepts and never
 * answers must not hang the CLI), longer for the operations that do real work. A command
 * that has reached the server once keeps retrying while it is unreachable, so following
 * an experiment survives a server restart; a command that has never reached it gives up
 * after a few seconds and says the server is not running.
 */
import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import superjson from "superjson";
import type { AppRouter } from "@/server/api/root";
import { loadConfig } from "@/server/config/env";
import { ERROR_ANSWERS } from "@/server/errors";
import { CliError } from "./cli-error";

export type Api = ReturnType<typeof createTRPCClient<AppRouter>>;

export interface Connection {
  url: string;
  headers: Record<string, string>;
  api: Api;
}

/** Reads answer at once; a slower answer means the server is stuck or overloaded. */
export const QUERY_TIMEOUT_MS = 30_000;
/** Mutations write to the database and may start jobs. */
export const MUTATION_TIMEOUT_MS = 2 * 60_000;
/** Procedures that copy data before answering. */
const LONG_PROCEDURES: Record<string, number> = { "datasets.registerPath": 30 * 60_000 };
/** How long a command that never reached the server retries before saying it is not running. */
export const FIRST_CONTACT_PATIENCE_MS = 1_500;

let reachedServer = false;

function timeoutFor(url: string, method: string): number {
  const procedure = new URL(url).pathname.split("/").pop() ?? "";
  return LONG_PROCEDURES[procedure] ?? (method === "GET" ? QUERY_TIMEOUT_MS : MUTATION_TIMEOUT_MS);
}

// A plain timer and controller: a Node 20 AbortSignal.timeout() combined with
// AbortSignal.any() can be garbage-collected before it fires, and the request then
// waits forever.
export const timedFetch: typeof fetch = async (input, init) => {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  const limitMs = timeoutFor(url, init?.method ?? "GET");
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException(`no answer within ${limitMs / 1000} s`, "TimeoutError")), limitMs);
  const outer = init?.signal;
  const forward = () => controller.abort(outer?.reason);
  outer?.addEventListener("abort", forward, { once: true });
  try {
    const res = await fetch(input, { ...init, signal: controller.signal });
    // The body is read after this returns: keep the limit until it is consumed.
    const body = await res.arrayBuffer();
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener("abort", forward);
  }
};

export function connect(): Connection {
  const config = loadConfig();
  const headers: Record<string, string> = config.token ? { authorization: `Bearer ${config.token}` } : {};
  const api = createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${config.url}/api/trpc`, transformer: superjson, headers: () => headers, fetch: timedFetch })],
  });
  return { url: config.url, headers, api };
}

function errorText(err: unknown): string {
  const cause = (err as { cause?: { message?: string; name?: string; cause?: unknown } })?.cause;
  return `${(err as Error)?.name ?? ""} ${(err as Error)?.message ?? ""} ${cause?.name ?? ""} ${cause?.message ?? ""} ${String(cause?.cause ?? "")}`;
}

function isTimeout(err: unknown): boolean {
  return /TimeoutError|aborted due to timeout/i.test(errorText(err));
}

/** True for errors that mean "the server is not answering now" (restart, network, time limit). */
export function isUnreachable(err: unknown): boolean {
  if (err instanceof TRPCClientError && err.data?.httpStatus && err.data.httpStatus < 500) return false;
  return isTimeout(err) || /fetch failed|ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENOTFOUND|socket hang up|other side closed|UND_ERR|503|502/i.test(errorText(err));
}

/** The message for a server that did not answer: not running, or running but stuck. */
export function unreachableError(err: unknown): CliError {
  const url = loadConfig().url;
  if (isTimeout(err)) {
    return new CliError(`The Trainyard server at ${url} accepted the connection but did not answer in time; it may be overloaded or stuck (see its output).`, 1, "server_timeout");
  }
  return new CliError(`The Trainyard server at ${url} is not answering: is it running? Start it with \`npm start\`, or point TRAINYARD_URL at it.`, 1, "server_unreachable");
}

/** Runs `call`, retrying while the server is unreachable, for at most `patienceMs` once it has answered before. */
export async function withRetry<T>(
  call: () => Promise<T>,
  opts: { patienceMs?: number; onWait?: (message: string) => void } = {},
): Promise<T> {
  const patience = reachedServer ? (opts.patienceMs ?? 5 * 60_000) : FIRST_CONTACT_PATIENCE_MS;
  const deadline = Date.now() + patience;
  let delay = 500;
  let warned = false;
  for (;;) {
    try {
      const value = await call();
      reachedServer = true;
      return value;
    } catch (err) {
      if (!isUnreachable(err)) {
        reachedServer = true; // it answered, with a refusal
        throw toCliError(err);
      }
      const left = deadline - Date.now();
      if (left <= 0) throw unreachableError(err);
      if (!warned && reachedServer) opts.onWait?.("The server does not answer; waiting for it to come back…");
      warned = true;
      await new Promise((r) => setTimeout(r, Math.min(delay, left)));
      delay = Math.min(delay * 2, 5000);
    }
  }
}

export function toCliError(err: unknown): Error {
  if (err instanceof CliError) return err;
  if (err instanceof TRPCClientError) {
    // The request guard refuses a token before tRPC answers: its {error} is in the response, not in a tRPC envelope.
    const guard = err.meta as { response?: Response; responseJSON?: { error?: unknown } } | undefined;
    const status = (err.data?.httpStatus as number | undefined) ?? guard?.response?.status;
    if (status === ERROR_ANSWERS.UNAUTHORIZED.status) {
      const refused = typeof guard?.responseJSON?.error === "string" ? `${guard.responseJSON.error} ` : "";
      return new CliError(`${refused}The server needs a valid API token: set TRAINYARD_TOKEN (create one with \`trainyard token create NAME\`).`, 1, "unauthorized");
    }
    const code = typeof err.data?.code === "string" ? err.data.code.toLowerCase() : "server_error";
    return new CliError(err.message, 1, code);
  }
  return err instanceof Error ? err : new Error(String(err));
}
