/**
 * A monitor as every door shows it (contracts/monitoring ZMonitorView): its windows oldest
 * first with their verdicts, and which columns alert (drifted in each of the last
 * `alertAfter` judged windows that had enough traffic).
 */
import { healthPolicyLifecycle, monitorLifecycle } from "@/contracts/lifecycles";
import { ZHealthPolicy, ZStoredVerdict, type DeploymentHealthRow, type MonitorView, type MonitorWindow } from "@/contracts/monitoring/monitoring";
import type { Db } from "@/server/db/client";
import { parseStoredJson } from "@/server/db/stored-json";
import { parseCounts, percentileMs } from "@/server/deployments/stats-window";
import { z } from "zod";
import { ZHistograms } from "./binning";
import { healthOf } from "./health";
import { deploymentsRepository } from "@/server/deployments/deployments.repository";

/** MonitorAlert.columns: the names of the columns that alerted. */
const ZColumnNames = z.array(z.string());

type MonitorRow = NonNullable<Awaited<ReturnType<Db["monitor"]["findUnique"]>>>;
type WindowRow = NonNullable<Awaited<ReturnType<Db["monitorWindow"]["findUnique"]>>>;

export function windowView(w: WindowRow): MonitorWindow {
  const judged = parseStoredJson(ZStoredVerdict, w.verdict);
  const errors = parseCounts(w.errors);
  const latency = parseCounts(w.latencyMs);
  const failed = Object.values(errors).reduce((a, b) => a + b, 0);
  return {
    seq: w.seq,
    openedAt: w.openedAt.toISOString(),
    closedAt: w.closedAt?.toISOString() ?? null,
    n: w.requests,
    rows: w.rows,
    verdict: judged?.verdict ?? null,
    driftedColumns: (judged?.columns ?? []).filter((c) => c.drifted).map((c) => c.name),
    failureRate: w.requests ? failed / w.requests : null,
    errorStreak: w.errorStreak,
    errors,
    p50Ms: percentileMs(latency, 0.5),
    p95Ms: percentileMs(latency, 0.95),
    columns: judged?.columns ?? [],
    histograms: parseStoredJson(ZHistograms, w.histograms) ?? {},
  };
}

/** Columns that drifted in every one of the last `k` windows with a verdict other than not enough traffic. */
export function alertingColumns(windows: readonly MonitorWindow[], k: number): string[] {
  const judged = windows.filter((w) => w.verdict === "ok" || w.verdict === "drift").slice(-k);
  if (judged.length < k) return [];
  return judged.map((w) => w.driftedColumns).reduce((a, b) => a.filter((c) => b.includes(c)));
}

function policyView(m: MonitorRow): MonitorView["policy"] {
  const limits = parseStoredJson(ZHealthPolicy, m.policy);
  if (!limits || !m.policyState || !healthPolicyLifecycle.isState(m.policyState)) return null;
  return { state: m.policyState, reason: m.policyReason, limits };
}

export async function monitorView(db: Db, m: MonitorRow): Promise<MonitorView> {
  if (!monitorLifecycle.isState(m.state)) throw new Error(`monitor ${m.id} has an unknown state "${m.state}"`);
  const [deployment, release, windows, alerts] = await Promise.all([
    deploymentsRepository(db).findOrThrow(m.deploymentId),
    deploymentsRepository(db).releaseOrThrow(m.releaseId),
    db.monitorWindow.findMany({ where: { monitorId: m.id }, orderBy: { seq: "asc" } }),
    db.monitorAlert.findMany({ where: { monitorId: m.id }, orderBy: { id: "asc" } }),
  ]);
  const version = await deploymentsRepository(db).versionNumber(release.versionId);
  const views = windows.map(windowView);
  const view: Omit<MonitorView, "health"> = {
    id: m.id,
    deploymentId: m.deploymentId,
    deploymentName: deployment.name,
    release: { id: release.id, number: release.number, version: version?.number ?? 0 },
    state: m.state,
    reason: m.reason,
    windowRequests: m.windowRequests,
    windowMinutes: m.windowMinutes,
    minRows: m.minRows,
    alertAfter: m.alertAfter,
    referenceWindow: m.referenceWindow,
    alertCooldownMinutes: m.alertCooldownMinutes,
    alerts: alerts.map((a) => ({ windowSeq: a.windowSeq, columns: parseStoredJson(ZColumnNames, a.columns) ?? [], at: a.at.toISOString() })),
    alertingColumns: alertingColumns(views, m.alertAfter),
    policy: policyView(m),
    windows: views,
    createdAt: m.createdAt.toISOString(),
  };
  return { ...view, health: healthOf(view) };
}

/** Each deployment of the project, with the health of the release it serves now. */
export async function projectHealth(db: Db, projectId: string): Promise<DeploymentHealthRow[]> {
  const deployments = await deploymentsRepository(db).inProject(projectId);
  return Promise.all(
    deployments.map(async (d) => {
      const m = d.currentReleaseId ? await db.monitor.findUnique({ where: { deploymentId_releaseId: { deploymentId: d.id, releaseId: d.currentReleaseId } } }) : null;
      const view = m ? await monitorView(db, m) : null;
      return { deploymentId: d.id, deploymentName: d.name, deploymentState: d.state, monitorId: m?.id ?? null, health: view?.health ?? "not_watched", alertingColumns: view?.alertingColumns ?? [] };
    }),
  );
}
