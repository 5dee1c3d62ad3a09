/**
 * Where the time of one CLI journey went, step by step, from what the server and the local
 * worker recorded: per job the wait before it was admitted (since the step it waited for
 * ended: the chain's reaction time), admission → process start (control call, receipt,
 * supervisor), process start → the recipe's first event (Python start and imports), and
 * the job's wall time. Bench-only: it reads the worker's job folders on this machine.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

export interface TimelineJob {
  label: string;
  createdAt: string;
  startedAt: string | null;
  endedAt: string | null;
  workerJobId: string | null;
  /** Labels of the jobs this one waited for (the chain's `needs`), when known. */
  needs: string[];
}

export interface TimelineRow {
  step: string;
  waitBefore: number | null;
  toStart: number | null;
  toFirstEvent: number | null;
  wall: number | null;
}

const secs = (a: string | null, b: string | null) => (a && b ? (Date.parse(b) - Date.parse(a)) / 1000 : null);

/** The time of the recipe's first event (events.jsonl in the worker's job folder). */
export function firstEventAt(workerHome: string, workerJobId: string | null): string | null {
  if (!workerJobId) return null;
  const file = path.join(workerHome, "jobs", workerJobId, "events.jsonl");
  if (!existsSync(file)) return null;
  // The worker writes its own state events into the same file; the recipe's are the others.
  for (const line of readFileSync(file, "utf8").split("\n")) {
    try {
      const e = JSON.parse(line) as { t?: string; type?: string };
      if (e.type !== "state" && e.t) return e.t;
    } catch {
      // a partial last line
    }
  }
  return null;
}

export function timeline(jobs: TimelineJob[], workerHome: string, journeyStartedAt: string): TimelineRow[] {
  const ended = new Map(jobs.map((j) => [j.label, j.endedAt]));
  const sorted = [...jobs].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
  return sorted.map((j, i) => {
    const needEnds = j.needs.map((n) => ended.get(n)).filter((t): t is string => Boolean(t));
    // Without known needs, the job waited for the previous one (or the journey's start).
    const after = needEnds.length ? needEnds.sort().at(-1)! : i === 0 ? journeyStartedAt : sorted[i - 1]!.endedAt;
    return {
      step: j.label,
      waitBefore: secs(after, j.createdAt),
      toStart: secs(j.createdAt, j.startedAt),
      toFirstEvent: secs(j.startedAt, firstEventAt(workerHome, j.workerJobId)),
      wall: secs(j.startedAt, j.endedAt),
    };
  });
}

export function formatTimeline(rows: TimelineRow[]): string {
  const f = (v: number | null) => (v === null ? "-" : v.toFixed(1));
  const lines = [["  step", "wait before", "admit→start", "start→first event", "wall"].join("\t")];
  for (const r of rows) lines.push([`  ${r.step}`, f(r.waitBefore), f(r.toStart), f(r.toFirstEvent), f(r.wall)].join("\t"));
  return lines.join("\n");
}
