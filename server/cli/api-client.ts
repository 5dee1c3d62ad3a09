/**
 * The CLI's connection to a running server: tRPC over HTTP (TRAINYARD_URL, bearer token
 * from TRAINYARD_TOKEN), with retries while the server is unreachable so that a command
 * that follows an experiment keeps following across a server restart.
 */
import { createTRPCClient, httpLink, TRPCClientError } from "@trpc/client";
import superjson from "superjson";
import type { AppRouter } from "@/server/api/root";
import { loadConfig } from "@/server/config/env";
import { CliError } from "./cli-error";

export type Api = ReturnType<typeof createTRPCClient<AppRouter>>;

export interface Connection {
  url: string;
  headers: Record<string, string>;
  api: Api;
}

export function connect(): Connection {
  const config = loadConfig();
  const headers: Record<string, string> = config.token ? { authorization: `Bearer ${config.token}` } : {};
  const api = createTRPCClient<AppRouter>({
    links: [httpLink({ url: `${config.url}/api/trpc`, transformer: superjson, headers: () => headers })],
  });
  return { url: config.url, headers, api };
}

/** True for errors that mean "the server is not answering now" (restart, network). */
export function isUnreachable(err: unknown): boolean {
  const text = `${(err as Error)?.message ?? ""} ${String((err as { cause?: unknown })?.cause ?? "")}`;
  if (err instanceof TRPCClientError && err.data?.httpStatus && err.data.httpStatus < 500) return false;
  return /fetch failed|ECONNREFUSED|ECONNRESET|socket hang up|other side closed|UND_ERR|503|502/i.test(text);
}

/** Runs `call`, retrying while the server is unreachable, for at most `patienceMs`. */
export async function withRetry<T>(
  call: () => Promise<T>,
  opts: { patienceMs?: number; onWait?: (message: string) => void } = {},
): Promise<T> {
  const deadline = Date.now() + (opts.patienceMs ?? 5 * 60_000);
  let delay = 500;
  let warned = false;
  for (;;) {
    try {
      return await call();
    } catch (err) {
      if (!isUnreachable(err)) throw toCliError(err);
      if (Date.now() > deadline) {
        throw new CliError(`The Trainyard server at ${loadConfig().url} does not answer. Is it running (npm start)?`);
      }
      if (!warned) opts.onWait?.("The server does not answer; waiting for it to come back…");
      warned = true;
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 5000);
    }
  }
}

export function toCliError(err: unknown): Error {
  if (err instanceof CliError) return err;
  if (err instanceof TRPCClientError) {
    const status = err.data?.httpStatus as number | undefined;
    if (status === 401) return new CliError("The server needs an API token: set TRAINYARD_TOKEN (create one with `trainyard token create NAME`).");
    return new CliError(err.message);
  }
  return err instanceof Error ? err : new Error(String(err));
}
