// Job lifecycle on the worker: the ONLY function that changes a job's state (the table is
// contracts/lifecycles/job.ts). Every transition is appended to the job's events.jsonl as
// {"t", "type": "state", "from", "to", "reason"} (the audit trail the controller reads).
import fs from "node:fs";
import path from "node:path";
import type { TReceipt } from "../../contracts/worker/receipt";
import { workerJobLifecycle } from "../../contracts/lifecycles/job";
import type { JobReason, JobState } from "../../contracts/worker/states";
import { appendLine, nowIso } from "./fsx";
import type { Home } from "./home";
import { updateReceipt } from "./receipts";

/** The worker's table (contracts/lifecycles/job.ts): one step at a time. */
export const TRANSITIONS = workerJobLifecycle.transitions;

export function canTransition(from: JobState, to: JobState): boolean {
  return workerJobLifecycle.canMove(from, to);
}

export function eventsFile(home: Home, jobId: string): string {
  return path.join(home.jobDir(jobId), "events.jsonl");
}

export interface TransitionResult {
  receipt: TReceipt;
  changed: boolean;
  from: JobState;
}

/**
 * Move a job to `to` if the table allows it from its current state; `patch` is applied in
 * the same atomic receipt write. A disallowed move changes nothing (changed: false), so two
 * racing writers (supervisor finishing, inspect reconciling) cannot both win.
 */
export function transition(
  home: Home,
  jobId: string,
  to: JobState,
  reason: JobReason | null,
  patch: (r: TReceipt) => Partial<TReceipt> = () => ({}),
  allowedFrom?: readonly JobState[],
): TransitionResult {
  let changed = false;
  let from: JobState = to;
  const receipt = updateReceipt(home, jobId, (r) => {
    from = r.state;
    if (!canTransition(r.state, to)) return null;
    if (allowedFrom && !allowedFrom.includes(r.state)) return null;
    changed = true;
    const terminalTime = workerJobLifecycle.isTerminal(to) ? { endedAt: r.endedAt ?? nowIso() } : {};
    return { ...r, ...terminalTime, ...patch(r), state: to, reason: reason ?? (to === "queued" ? null : r.reason) };
  });
  if (changed) {
    try {
      if (fs.existsSync(home.jobDir(jobId))) {
        appendLine(eventsFile(home, jobId), JSON.stringify({ t: nowIso(), type: "state", from, to, reason }));
      }
    } catch {
      // The receipt is the record; a failed audit append (e.g. full disk) must not undo it.
    }
  }
  return { receipt, changed, from };
}
