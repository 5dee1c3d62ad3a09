/**
 * Monitor operations, as the router, the CLI (through it) and the MCP tool call them.
 * A monitor watches the deployment's current release when it is made; making it again for
 * that release answers the same monitor. A tabular release's reference is its training
 * data (reference-step.ts); a language model's, a window of its own traffic.
 */
import type { z } from "zod";
import { ZHealthPolicy, type MonitorView, type ZAcceptWindowInput, type ZCreateMonitorInput, type ZSetPolicyInput } from "@/contracts/monitoring/monitoring";
import { getDb, type Db } from "@/server/db/client";
import { findDeployment } from "@/server/deployments/deployment-views";
import { kindOfVersionRow } from "@/server/deployments/release-kind";
import { badInput, conflict, notFound } from "@/server/errors";
import { applyPolicy, currentWindowSeq, movePolicy } from "./health-policy";
import { judgeClosedWindows, windowAsReference } from "./judge";
import { ZHistograms } from "./binning";
import { llmReferenceTemplate } from "./llm-reference";
import { parseStoredJson } from "@/server/db/stored-json";
import { monitorChanged, moveMonitor } from "./monitor-store";
import { monitorView, projectHealth } from "./monitor-views";
import { advancePreparing, referenceOf } from "./reference-step";
import { closeWindowNow, flushWindowCounts } from "./window-counts";
import { deploymentsRepository } from "@/server/deployments/deployments.repository";

async function findMonitor(db: Db, id: string) {
  const m = await db.monitor.findUnique({ where: { id } });
  if (!m) throw notFound(`There is no monitor ${id}.`);
  return m;
}

/** One step of a monitor (the reconciler's advance): settle its reference, or judge its closed windows. */
export async function advanceMonitor(db: Db, id: string): Promise<void> {
  const m = await db.monitor.findUnique({ where: { id } });
  if (m?.state === "preparing") await advancePreparing(db, m);
  else if (m) {
    if (m.state === "watching" && m.windowMinutes !== null) await closeWhenDue(db, id, m.windowMinutes);
    await judgeClosedWindows(db, id);
    await applyPolicy(db, id);
  }
}

/** A window by time: the open one closes once it is `minutes` old (an empty one has no row, and nothing to close). */
async function closeWhenDue(db: Db, monitorId: string, minutes: number): Promise<void> {
  await flushWindowCounts(db);
  const open = await db.monitorWindow.findFirst({ where: { monitorId, closedAt: null }, orderBy: { seq: "desc" } });
  if (!open || Date.now() - open.openedAt.getTime() < minutes * 60_000) return;
  await closeWindowNow(db, monitorId);
  await flushWindowCounts(db);
}

/** Monitors with work to do: a reference to make, a window due by time or without a verdict, an armed policy. */
export async function monitorsWithWork(db: Db): Promise<{ id: string }[]> {
  const preparing = await db.monitor.findMany({ where: { OR: [{ state: "preparing" }, { policyState: "armed" }, { state: "watching", windowMinutes: { not: null } }] }, select: { id: true } });
  const unjudged = await db.monitorWindow.findMany({ where: { closedAt: { not: null }, verdict: null }, select: { monitorId: true }, distinct: ["monitorId"] });
  return [...preparing, ...unjudged.map((w) => ({ id: w.monitorId }))];
}

/** The release before the watched one, of another version: what a policy rolls back to unless told. */
async function approvedDefault(db: Db, releaseId: string): Promise<number> {
  const watched = await deploymentsRepository(db).releaseOrThrow(releaseId);
  const earlier = await deploymentsRepository(db).earlierReleaseOfOtherVersion(watched.deploymentId, watched.number, watched.versionId);
  if (!earlier) throw badInput("The deployment has no earlier release of another version to roll back to; name the release to roll back to (rollbackTo).", { code: "no_earlier_release" });
  return earlier.number;
}

async function checkRollbackTarget(db: Db, m: { deploymentId: string; releaseId: string }, number: number): Promise<void> {
  const target = await deploymentsRepository(db).releaseByNumber(m.deploymentId, number);
  if (!target) throw badInput(`The deployment has no release ${number}.`, { code: "no_such_release" });
  const watched = await deploymentsRepository(db).releaseOrThrow(m.releaseId);
  if (target.versionId === watched.versionId) throw badInput(`Release ${number} serves the same version as the release this monitor watches; roll back to another version's release.`, { code: "same_version" });
}

export function monitorsService(db: Db = getDb()) {
  const view = async (id: string) => {
    await flushWindowCounts(db);
    return monitorView(db, await findMonitor(db, id));
  };
  return {
    view,
    async create(input: z.output<typeof ZCreateMonitorInput>): Promise<MonitorView> {
      const d = await findDeployment(db, input.deploymentId);
      if (!d.currentReleaseId) throw conflict(`The deployment "${d.name}" serves no release yet, so there is nothing to watch.`, { code: "no_release" });
      const release = await deploymentsRepository(db).releaseOrThrow(d.currentReleaseId);
      const version = await deploymentsRepository(db).versionOrThrow(release.versionId);
      const had = await db.monitor.findUnique({ where: { deploymentId_releaseId: { deploymentId: d.id, releaseId: release.id } } });
      if (had) return view(had.id);
      // A language model's descriptors have fixed bins: it watches at once, its reference a window of traffic.
      const llm = kindOfVersionRow(version) === "llm";
      const m = await db.monitor.create({
        data: {
          projectId: d.projectId,
          deploymentId: d.id,
          releaseId: release.id,
          state: llm ? "watching" : "preparing",
          reason: llm ? "the first window with enough traffic becomes the reference" : null,
          reference: llm ? JSON.stringify(llmReferenceTemplate()) : null,
          windowRequests: input.windowRequests,
          windowMinutes: input.windowMinutes ?? null,
          minRows: input.minRows,
          alertAfter: input.alertAfter,
          alertCooldownMinutes: input.alertCooldownMinutes,
        },
      });
      await monitorChanged(db, m.id);
      // Its reference job starts now; the monitors reconciler settles it.
      await advanceMonitor(db, m.id);
      return view(m.id);
    },
    async listForDeployment(deploymentId: string): Promise<MonitorView[]> {
      await findDeployment(db, deploymentId);
      await flushWindowCounts(db);
      const rows = await db.monitor.findMany({ where: { deploymentId }, orderBy: { createdAt: "asc" } });
      return Promise.all(rows.map((m) => monitorView(db, m)));
    },
    /** Closes the open window now (whatever its size), judges every closed window, and answers the monitor. */
    async check(id: string): Promise<MonitorView> {
      const m = await findMonitor(db, id);
      if (!referenceOf(m)) throw conflict(`The monitor is ${m.state}${m.reason ? ` (${m.reason})` : ""}: it has no reference yet, so no window can be judged.`, { code: "no_reference" });
      await flushWindowCounts(db);
      await closeWindowNow(db, id);
      await flushWindowCounts(db);
      await judgeClosedWindows(db, id);
      return view(id);
    },
    async pause(id: string): Promise<MonitorView> {
      await moveMonitor(db, (await findMonitor(db, id)).id, "paused", { reason: "paused by the owner" });
      return view(id);
    },
    async resume(id: string): Promise<MonitorView> {
      await moveMonitor(db, (await findMonitor(db, id)).id, "watching", { reason: "resumed by the owner" });
      return view(id);
    },
    /** Makes a failed monitor's reference again (its job is asked once more). */
    async retry(id: string): Promise<MonitorView> {
      await moveMonitor(db, (await findMonitor(db, id)).id, "preparing", { reason: "retried by the owner" });
      await advanceMonitor(db, id);
      return view(id);
    },
    /** Sets the health policy (or replaces its limits), armed from the window in progress. */
    async setPolicy(input: z.output<typeof ZSetPolicyInput>): Promise<MonitorView> {
      const m = await findMonitor(db, input.monitorId);
      const policy = ZHealthPolicy.parse({ ...input.policy, rollbackTo: input.policy.rollbackTo ?? (await approvedDefault(db, m.releaseId)) });
      await checkRollbackTarget(db, m, policy.rollbackTo);
      const data = { fromWindow: await currentWindowSeq(db, m.id) };
      const reason = `armed: rolls back to release ${policy.rollbackTo} on a breach`;
      if (m.policyState === "fired") throw conflict("This monitor's policy already rolled the deployment back; make a monitor for the release it serves now.", { code: "policy_fired" });
      if (m.policyState === null) {
        // Its first state, written with it (as a monitor is created preparing); every later move goes through transition().
        await db.monitor.update({ where: { id: m.id, policyState: null }, data: { policy: JSON.stringify(policy), policyState: "armed", policyReason: reason, policyStateData: JSON.stringify(data) } });
        await monitorChanged(db, m.id);
      } else if (m.policyState === "armed") {
        await db.monitor.update({ where: { id: m.id }, data: { policy: JSON.stringify(policy) } });
        await monitorChanged(db, m.id);
      } else await movePolicy(db, m.id, "armed", { reason, data, policy });
      return view(m.id);
    },
    async pausePolicy(id: string): Promise<MonitorView> {
      await movePolicy(db, (await findMonitor(db, id)).id, "paused", { reason: "paused by the owner" });
      return view(id);
    },
    /** Makes a closed window's counts the reference for the windows after it (a reviewed stretch of real traffic). */
    async acceptWindow(input: z.output<typeof ZAcceptWindowInput>): Promise<MonitorView> {
      const m = await findMonitor(db, input.monitorId);
      const reference = referenceOf(m);
      if (!reference) throw conflict(`The monitor is ${m.state}: it has no bins yet to count a window in.`, { code: "no_reference" });
      await flushWindowCounts(db);
      const w = await db.monitorWindow.findUnique({ where: { monitorId_seq: { monitorId: m.id, seq: input.seq } } });
      if (!w?.closedAt) throw badInput(`Window ${input.seq} ${w ? "is still open" : "does not exist"}; accept a closed window.`, { code: "no_such_window" });
      if (w.rows < m.minRows) throw badInput(`Window ${input.seq} has ${w.rows} rows, fewer than the ${m.minRows} a verdict needs; accept a window with more traffic.`, { code: "too_few_rows" });
      const accepted = windowAsReference(reference, { rows: w.rows, histograms: parseStoredJson(ZHistograms, w.histograms) ?? {} });
      await db.monitor.update({ where: { id: m.id }, data: { reference: JSON.stringify(accepted), referenceWindow: w.seq } });
      await monitorChanged(db, m.id);
      return view(m.id);
    },
    async projectHealth(projectId: string) {
      await flushWindowCounts(db);
      return projectHealth(db, projectId);
    },
    async reference(id: string) {
      const m = await findMonitor(db, id);
      return { monitorId: m.id, state: m.state, referenceWindow: m.referenceWindow, reference: referenceOf(m) };
    },
  };
}
