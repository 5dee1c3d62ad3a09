/**
 * Prometheus text exposition (format 0.0.4) of the controller: jobs by state and
 * computer, reconcile lag, worker reachability. Labels carry only state names and the
 * computers' display names: never commands, paths, inputs or secrets.
 */
import { getDb, type Db } from "@/server/db/client";
import { JOB_STATES } from "@/server/jobs/job-state";
import { jobsRepository } from "@/server/jobs/jobs.repository";
import { targetsRepository } from "@/server/targets/targets.repository";
import { everySweepStats, sweepStats } from "./loop-stats";
import { JOBS_RECONCILER } from "./reconcilers/jobs";

export function escapeLabel(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');
}

/** Every background reconciler's sweeps, labelled by its name. */
function reconcilerLines(now: number): string[] {
  const all = everySweepStats();
  const family = (name: string, help: string, type: string, value: (s: (typeof all)[number][1]) => string) => [
    `# HELP ${name} ${help}`,
    `# TYPE ${name} ${type}`,
    ...all.map(([r, s]) => `${name}{reconciler="${escapeLabel(r)}"} ${value(s)}`),
  ];
  return [
    ...family("trainyard_reconciler_sweeps_total", "Sweeps a background reconciler completed.", "counter", (s) => String(s.sweeps)),
    ...family("trainyard_reconciler_failed_sweeps_total", "Sweeps in which a reconciler could not list or advance a row.", "counter", (s) => String(s.failedSweeps)),
    ...family("trainyard_reconciler_lag_seconds", "Seconds since a reconciler's last sweep without a failure (since start before the first).", "gauge", (s) => {
      const since = s.lastSuccessAt ?? s.startedAt;
      return since === null ? "NaN" : ((now - since) / 1000).toFixed(3);
    }),
  ];
}

export async function renderMetrics(db: Db = getDb(), now = Date.now()): Promise<string> {
  const targets = await targetsRepository(db).list();
  const counts = await jobsRepository(db).countByStateAndTarget();
  const lines: string[] = [];

  lines.push("# HELP trainyard_jobs Jobs recorded by the controller, by state and training computer.");
  lines.push("# TYPE trainyard_jobs gauge");
  for (const t of targets) {
    for (const state of JOB_STATES) {
      const n = counts.find((c) => c.targetId === t.id && c.state === state)?._count._all ?? 0;
      lines.push(`trainyard_jobs{target="${escapeLabel(t.name)}",state="${state}"} ${n}`);
    }
  }

  // The jobs' reconciler keeps the names these series had when it was the one loop.
  const stats = sweepStats(JOBS_RECONCILER);
  const since = stats.lastSuccessAt ?? stats.startedAt;
  lines.push("# HELP trainyard_reconcile_lag_seconds Seconds since the jobs' last successful reconcile sweep (since start before the first).");
  lines.push("# TYPE trainyard_reconcile_lag_seconds gauge");
  lines.push(`trainyard_reconcile_lag_seconds ${since === null ? "NaN" : ((now - since) / 1000).toFixed(3)}`);
  lines.push("# HELP trainyard_reconcile_passes_total Reconcile passes completed.");
  lines.push("# TYPE trainyard_reconcile_passes_total counter");
  lines.push(`trainyard_reconcile_passes_total ${stats.sweeps}`);
  lines.push("# HELP trainyard_reconcile_failed_passes_total Reconcile passes that failed.");
  lines.push("# TYPE trainyard_reconcile_failed_passes_total counter");
  lines.push(`trainyard_reconcile_failed_passes_total ${stats.failedSweeps}`);
  lines.push(...reconcilerLines(now));

  lines.push("# HELP trainyard_worker_reachable 1 when the computer's worker answered its last call, 0 when it did not.");
  lines.push("# TYPE trainyard_worker_reachable gauge");
  for (const t of targets) lines.push(`trainyard_worker_reachable{target="${escapeLabel(t.name)}"} ${t.unreachableSince ? 0 : 1}`);
  lines.push("# HELP trainyard_worker_unreachable_seconds Seconds since the computer's worker stopped answering (0 when it answers).");
  lines.push("# TYPE trainyard_worker_unreachable_seconds gauge");
  for (const t of targets) {
    const s = t.unreachableSince ? (now - t.unreachableSince.getTime()) / 1000 : 0;
    lines.push(`trainyard_worker_unreachable_seconds{target="${escapeLabel(t.name)}"} ${s.toFixed(3)}`);
  }
  return lines.join("\n") + "\n";
}
