/**
 * What a caller may fall back from: a computer, or a process on it, that does not answer
 * (the worker, the SSH link, a serving socket, a probe that said so). Anything else — a
 * refusal, a bug, a broken database — is thrown: a fallback must not hide it.
 */
import { isDomainError } from "@/server/errors";
import { ServingUnreachable } from "./socket-errors";
import { WorkerUnreachable } from "./transport-errors";

export function isUnreachable(err: unknown): boolean {
  return err instanceof WorkerUnreachable || err instanceof ServingUnreachable || (isDomainError(err) && err.code === "UNAVAILABLE");
}

/** `work`'s value, or `fallback`'s when the computer did not answer. */
export async function unlessUnreachable<T>(work: Promise<T>, fallback: () => T | Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (isUnreachable(err)) return fallback();
    throw err;
  }
}

/**
 * For work done early that a reconciler does again anyway (settle a dataset now, refresh a
 * probe): a computer that does not answer is expected and left to it; anything else is
 * logged, naming the work.
 */
export function reportUnlessUnreachable(what: string): (err: unknown) => void {
  return (err) => {
    if (!isUnreachable(err)) console.error(`${what} failed: ${err instanceof Error ? err.message : String(err)}`);
  };
}
