/**
 * A closed window's verdict, given once: too few rows says "not enough traffic"; otherwise
 * each column's bins against the reference at the window's own size (drift-stats.ts:
 * bootstrap thresholds, Benjamini–Hochberg across columns). Seeded by the window's number,
 * so a verdict computed twice (the reconciler and `check` at once) is the same verdict,
 * and only the first is written.
 */
import type { Reference } from "@/contracts/recipes/data";
import type { ColumnDrift, StoredVerdict } from "@/contracts/monitoring/monitoring";
import type { Db } from "@/server/db/client";
import { parseStoredJson } from "@/server/db/stored-json";
import { deploymentsRepository } from "@/server/deployments/deployments.repository";
import { monitorAlertNotice } from "@/server/notifications/monitor-alert";
import { notify } from "@/server/notifications/notify";
import { unseenAndMissing, ZHistograms, type Histograms } from "./binning";
import { driftedColumns } from "./drift-stats";
import { monitorChanged } from "./monitor-store";
import { alertingColumns, windowView } from "./monitor-views";
import { referenceOf } from "./reference-step";

export function verdictOf(reference: Reference, window: { rows: number; histograms: Histograms; seq: number }, minRows: number): StoredVerdict {
  if (window.rows < minRows) return { verdict: "not_enough_traffic", columns: [] };
  const tested = driftedColumns(
    reference.columns.map((c) => ({ name: c.name, reference: c.counts, window: window.histograms[c.name] ?? c.counts.map(() => 0) })),
    { seed: window.seq },
  );
  const columns: ColumnDrift[] = tested.map((t, i) => ({
    name: t.name,
    ...t.drift,
    drifted: t.drifted,
    ...unseenAndMissing(reference.columns[i]!, window.histograms[t.name] ?? []),
  }));
  return { verdict: columns.some((c) => c.drifted) ? "drift" : "ok", columns };
}

/** The same bins with a window's counts: the reference from now on. */
export function windowAsReference(reference: Reference, window: { rows: number; histograms: Histograms }): Reference {
  return { ...reference, rows: window.rows, columns: reference.columns.map((c) => ({ ...c, counts: window.histograms[c.name] ?? c.counts.map(() => 0) })) };
}

/** Gives every closed, unjudged window of the monitor its verdict; true when one was given. */
export async function judgeClosedWindows(db: Db, monitorId: string): Promise<boolean> {
  const monitor = await db.monitor.findUnique({ where: { id: monitorId } });
  let reference = monitor ? referenceOf(monitor) : null;
  if (!monitor || !reference) return false;
  const waiting = await db.monitorWindow.findMany({ where: { monitorId, closedAt: { not: null }, verdict: null }, orderBy: { seq: "asc" } });
  let judged = false;
  for (const w of waiting) {
    const histograms = parseStoredJson(ZHistograms, w.histograms) ?? {};
    if (reference.rows === 0 && w.rows >= monitor.minRows) {
      // No counts yet (a language model's fixed bins): its first window with enough traffic is the reference.
      reference = windowAsReference(reference, { rows: w.rows, histograms });
      await db.monitor.update({ where: { id: monitorId }, data: { reference: JSON.stringify(reference), referenceWindow: w.seq } });
    }
    const v = verdictOf(reference, { rows: w.rows, seq: w.seq, histograms }, monitor.minRows);
    judged = (await db.monitorWindow.updateMany({ where: { id: w.id, verdict: null }, data: { verdict: JSON.stringify(v) } })).count > 0 || judged;
  }
  if (judged) {
    await raiseAlert(db, monitor);
    await monitorChanged(db, monitorId);
  }
  return judged;
}

/**
 * After windows were judged: when columns alert (drifted in each of the last k judged
 * windows), an alert is raised — unless one was raised within the cooldown, so a drift that
 * lasts raises one alert per cooldown, not one per window. Each alert is one notification.
 */
async function raiseAlert(db: Db, monitor: { id: string; projectId: string; deploymentId: string; alertAfter: number; alertCooldownMinutes: number }): Promise<void> {
  const windows = (await db.monitorWindow.findMany({ where: { monitorId: monitor.id }, orderBy: { seq: "asc" } })).map(windowView);
  const columns = alertingColumns(windows, monitor.alertAfter);
  if (!columns.length) return;
  const last = await db.monitorAlert.findFirst({ where: { monitorId: monitor.id }, orderBy: { id: "desc" } });
  if (last && Date.now() - last.at.getTime() < monitor.alertCooldownMinutes * 60_000) return;
  const seq = windows.filter((w) => w.verdict).at(-1)!.seq;
  const alert = await db.monitorAlert.create({ data: { monitorId: monitor.id, windowSeq: seq, columns: JSON.stringify(columns) } });
  const deploymentName = (await deploymentsRepository(db).find(monitor.deploymentId))?.name ?? null;
  await notify(db, monitorAlertNotice({ alertId: alert.id, projectId: monitor.projectId, deploymentId: monitor.deploymentId, deploymentName, windowSeq: seq, columns }));
}
