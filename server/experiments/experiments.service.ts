/**
 * Experiments: start (idempotent by client operation id), read, cancel, run again,
 * delete. The chain itself is advanced by chain-advance.ts, driven by job events and a
 * periodic sweep (chain-loop.ts).
 */
import { rm } from "node:fs/promises";
import path from "node:path";
import { getDb, type Db } from "@/server/db/client";
import { badInput, conflict, notFound } from "@/server/errors";
import { publish } from "@/server/events/bus";
import { intentHash } from "@/server/jobs/intent-hash";
import { targetsService } from "@/server/targets/targets.service";
import { scheduleAdvance } from "./chain-advance";
import { exportArchivePath } from "./chain-results";
import { isExperimentTerminal } from "./experiment-state";
import { experimentsRepository } from "./experiments.repository";
import { ZStartExperimentInput, type TStartExperimentInput } from "./experiments.schema";
import { requireTrainable } from "./start-readiness";
import { toDetailView, toListView, type ExperimentDetailView, type ExperimentListView } from "./experiment-views";

export function experimentsService(db: Db = getDb()) {
  const repo = experimentsRepository(db);

  async function require(id: string) {
    const exp = await repo.find(id);
    if (!exp) throw notFound(`There is no experiment with id ${id}. It may have been deleted.`);
    return exp;
  }

  /** The project's saved computer when it is still usable, else This computer. */
  async function defaultTargetId(projectId: string): Promise<string> {
    const targets = await targetsService(db).list();
    const saved = (await repo.project(projectId))?.defaultTargetId;
    const chosen = saved ? targets.find((t) => t.id === saved && t.enabled) : undefined;
    if (chosen) return chosen.id;
    const local = targets.find((t) => t.thisComputer && t.enabled);
    if (!local) throw badInput("No training computer is available: This computer is missing or disabled.");
    return local.id;
  }

  async function start(raw: TStartExperimentInput): Promise<ExperimentDetailView> {
    const input = ZStartExperimentInput.parse(raw);
    const targetId = input.targetId ?? (await defaultTargetId(input.projectId));
    const hash = intentHash({ projectId: input.projectId, datasetId: input.datasetId, targetId, settings: input.settings });
    const existing = await repo.findByOpId(input.opId);
    if (existing) {
      if (existing.intentHash !== hash) throw conflict(`Operation ${input.opId} already started a different experiment.`);
      return get(existing.id);
    }
    const project = await repo.project(input.projectId);
    if (!project) throw notFound(`There is no project with id ${input.projectId}.`);
    if (project.archivedAt) throw badInput(`"${project.name}" is archived; restore it to train in it.`);
    const dataset = await repo.dataset(input.datasetId);
    if (!dataset || dataset.projectId !== input.projectId) throw notFound(`This project has no dataset ${input.datasetId}.`);
    if (dataset.status === "failed") throw badInput(`The dataset "${dataset.name}" could not be read; choose another file.`);
    // Hopeless setups (no feature column, a constant or per-row target, tiny classes) stop here, not in a job.
    requireTrainable(dataset, input.settings);
    const target = await targetsService(db).get(targetId);
    if (!target.enabled) throw badInput(`${target.name} is disabled.`);
    const count = await repo.countInProject(input.projectId);
    let exp;
    try {
      exp = await repo.create({
        projectId: input.projectId,
        opId: input.opId,
        intentHash: hash,
        name: input.name || `${input.settings.mode === "quick" ? "Quick baseline" : "Improve"} #${count + 1} — ${input.settings.target}`,
        targetId,
        targetRevision: target.revision,
        workerId: target.workerId,
        datasetId: dataset.id,
        snapshotSha256: dataset.snapshotSha256,
        settings: JSON.stringify(input.settings),
        budgetSeconds: Math.round(input.settings.maxMinutes * 60),
      });
    } catch (err) {
      // A concurrent start with the same opId won the insert.
      const again = await repo.findByOpId(input.opId);
      if (again && again.intentHash === hash) return get(again.id);
      throw err;
    }
    publish({ type: "experiment.changed", experimentId: exp.id, projectId: exp.projectId, status: exp.status });
    void scheduleAdvance(db, exp.id);
    return get(exp.id);
  }

  async function get(id: string): Promise<ExperimentDetailView> {
    const exp = await require(id);
    return toDetailView(db, exp);
  }

  return {
    start,
    get,
    list: async (projectId: string, statuses?: string[]): Promise<ExperimentListView[]> =>
      (await repo.list(projectId, statuses)).map(toListView),

    /** Stores the intent first; the chain delivers it to every active job. */
    async cancel(id: string): Promise<ExperimentDetailView> {
      const exp = await require(id);
      if (!isExperimentTerminal(exp.status)) {
        await repo.requestCancel(id);
        publish({ type: "experiment.changed", experimentId: id, projectId: exp.projectId, status: exp.status });
        await scheduleAdvance(db, id);
      }
      return get(id);
    },

    async rerun(id: string, opId: string): Promise<ExperimentDetailView> {
      const exp = await require(id);
      return start({
        opId,
        projectId: exp.projectId,
        datasetId: exp.datasetId,
        targetId: exp.targetId,
        settings: JSON.parse(exp.settings),
      });
    },

    async deletePreview(id: string) {
      const exp = await require(id);
      return {
        id,
        name: exp.name,
        canDelete: isExperimentTerminal(exp.status),
        reason: isExperimentTerminal(exp.status) ? null : "It is still running: cancel it first.",
        frees: exp.exportSha256 ? [{ what: "export archive", bytes: Number(exp.exportBytes ?? 0) }] : [],
      };
    },

    async delete(id: string): Promise<{ deleted: true }> {
      const exp = await require(id);
      if (!isExperimentTerminal(exp.status)) {
        throw conflict(`"${exp.name}" is still ${exp.status}; cancel it and wait until it has stopped before deleting it.`);
      }
      await repo.delete(id);
      if (exp.exportSha256 && (await repo.countByExport(exp.exportSha256)) === 0) {
        await rm(path.dirname(exportArchivePath(exp.exportSha256)), { recursive: true, force: true });
      }
      publish({ type: "experiment.changed", experimentId: id, projectId: exp.projectId, status: "deleted" });
      return { deleted: true };
    },
  };
}
