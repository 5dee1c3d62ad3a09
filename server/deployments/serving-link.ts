/**
 * Whether a resident deployment's SSH computer can be reached, as its own requests see it.
 * A request whose stream to the serving socket could not be opened because of the link
 * (LinkDown: a cut or silent SSH connection, not a process that is gone) notes the
 * deployment `unreachable`: health says so and its routes answer 503 `unreachable` at once
 * (a cut link would hold each request for the SSH timeouts). The note is cleared by the
 * first answer of its serving process: a probe of its /health, started by health reads and
 * by every reconcile pass, so a process that survived serves again without a restart. A
 * process that did not survive is seen ended by the jobs' own reconcile, as before.
 *
 * Kept in memory on globalThis (route handlers and the reconcile loop each have their own
 * copy of this module): a restarted controller starts with no note and finds out again.
 */
import type { Db } from "@/server/db/client";
import { DomainError } from "@/server/errors";
import { clientFor } from "./resident-serving";
import { LinkDown } from "./serving-client";

/** A probe gives up after this long (a silent link answers nothing). */
const PROBE_TIMEOUT_MS = 3000;
/** What a refused caller is told to wait before trying again. */
const RETRY_AFTER_SECONDS = 5;

export interface LinkNote {
  since: Date;
  reason: string;
  releaseId: string;
}

interface Entry extends LinkNote {
  probing: boolean;
}

const NOTES = Symbol.for("trainyard.deploymentLinks");

function notes(): Map<string, Entry> {
  const g = globalThis as { [NOTES]?: Map<string, Entry> };
  return (g[NOTES] ??= new Map());
}

/** The deployment's note: since when and why its computer cannot be reached; null when it can. */
export function linkNote(deploymentId: string): LinkNote | null {
  const n = notes().get(deploymentId);
  return n ? { since: n.since, reason: n.reason, releaseId: n.releaseId } : null;
}

/** Its serving process answered: the link is back (or never went). */
export function noteAnswered(deploymentId: string): void {
  notes().delete(deploymentId);
}

/** The refusal a route answers while the note stands (null: none). */
export function linkRefusal(deploymentId: string): DomainError | null {
  const n = notes().get(deploymentId);
  if (!n) return null;
  return new DomainError(
    "UNAVAILABLE",
    `The deployment's computer cannot be reached since ${n.since.toISOString()} (${n.reason}). Its serving process may still be running there: the deployment serves again as soon as the link is back, without a restart.`,
    { code: "unreachable", since: n.since.toISOString(), retryAfterSeconds: RETRY_AFTER_SECONDS },
  );
}

/**
 * A request to `releaseId` failed with `err`: a LinkDown notes the deployment unreachable
 * and comes back as the route's refusal; anything else comes back as it was.
 */
export function noteFailure(deploymentId: string, releaseId: string, err: Error): Error {
  if (!(err instanceof LinkDown)) return err;
  if (!notes().has(deploymentId)) notes().set(deploymentId, { since: new Date(), reason: err.message, releaseId, probing: false });
  return linkRefusal(deploymentId)!;
}

/** Asks the noted release's process for its health in the background; an answer clears the note. */
export function probeLink(db: Db, deploymentId: string): void {
  const n = notes().get(deploymentId);
  if (!n || n.probing) return;
  n.probing = true;
  void clientFor(db, n.releaseId)
    .then((c) => c.health({ timeoutMs: PROBE_TIMEOUT_MS }))
    .then(
      () => noteAnswered(deploymentId),
      // Reached, but nobody listens (the process is gone): not the link; the jobs' reconcile sees that end.
      (err: unknown) => (err instanceof LinkDown ? undefined : noteAnswered(deploymentId)),
    )
    .finally(() => {
      n.probing = false;
    });
}

/** The deployments whose link is noted down (the deployments' reconciler probes each). */
export function notedLinks(): string[] {
  return [...notes().keys()];
}
