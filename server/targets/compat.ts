/**
 * Protocol compatibility. A worker speaking an older protocol gets no new jobs (clear
 * message: update it), while inspect and cancel keep working so nothing already running
 * is abandoned. The probe is read leniently here: an older worker's probe need not match
 * today's full schema to tell its protocol number.
 */
import { z } from "zod";
import { WORKER_PROTOCOL } from "@/contracts/worker";
import { parseStoredJson } from "@/server/db/stored-json";

const ZProtocolOnly = z.object({ workerProtocol: z.number() }).loose();

export function workerProtocolOf(probeJson: string | null): number | null {
  return parseStoredJson(ZProtocolOnly, probeJson)?.workerProtocol ?? null;
}

/** null when the worker may take new jobs; otherwise the message to show. */
export function outdatedWorkerMessage(targetName: string, workerProtocol: number | null): string | null {
  if (workerProtocol === null || workerProtocol >= WORKER_PROTOCOL) return null;
  return (
    `The worker on ${targetName} speaks protocol ${workerProtocol}, and new jobs need protocol ${WORKER_PROTOCOL}: ` +
    `update the worker on ${targetName}. Jobs already there can still be inspected and cancelled.`
  );
}
