/**
 * What else sees a counted request, in memory and at once: monitors (server/monitoring)
 * count its rows into their windows. Deployments know nothing of them: an observer
 * registers here, and is handed the request's checked rows, which it must not keep.
 * On globalThis: route handlers and the server's own code are separate module copies.
 */
import type { Db } from "@/server/db/client";
import type { Row } from "./predict-rows";
import type { RequestOutcome } from "./request-counts";

export type ObservedRequest = RequestOutcome & { rows: readonly Row[] | null; at: Date };
export type RequestObserver = (db: Db, request: ObservedRequest) => void;

const KEY = Symbol.for("trainyard.requestObservers");
const observers = () => ((globalThis as { [KEY]?: Map<string, RequestObserver> })[KEY] ??= new Map());

/** Registers (or replaces) the observer named `name`. */
export function observeRequests(name: string, fn: RequestObserver): void {
  observers().set(name, fn);
}

/** Hands one counted request to every observer; an observer's failure never fails the request. */
export function notifyObservers(db: Db, request: ObservedRequest): void {
  for (const [name, fn] of observers()) {
    try {
      fn(db, request);
    } catch (err) {
      console.error(`request observer ${name} failed: ${(err as Error).message}`);
    }
  }
}
