/** A failed job in words, for any caller that waited for one (predictions, serving, holdouts). */
import type { JobReason } from "@/contracts/worker/states";
import type { JobDetailView } from "./jobs.schema";

/**
 * Reasons the supervisor stopped a job for: its detail says why ("memory budget of 2 GiB
 * exceeded: …"), while the recipe's report then only says it got SIGTERM.
 */
const SUPERVISOR_STOPS: ReadonlySet<string> = new Set<JobReason>(["out_of_memory", "deadline", "disk_full"]);

/** The recipe's own words for a failed job (report.error.message), else the job's detail; the supervisor's when it stopped the job. */
export function jobFailureText(job: Pick<JobDetailView, "state" | "reason" | "detail" | "report">): string {
  if (job.detail && job.reason && SUPERVISOR_STOPS.has(job.reason)) return job.detail;
  const report = job.report as { error?: { code?: string; message?: string } | null } | null;
  const msg = report?.error?.message;
  if (msg) return report?.error?.code ? `${msg} (${report.error.code})` : msg;
  return job.detail ?? `the job ended ${job.state}${job.reason ? ` (${job.reason})` : ""}`;
}
