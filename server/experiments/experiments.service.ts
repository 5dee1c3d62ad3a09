/**
 * Experiments: start (idempotent by client operation id), read, cancel, run again,
 * delete. The chain itself is advanced by chain-advance.ts, driven by job events and a
 * periodic sweep (server/controller/reconcilers/experiment-chains.ts).
 */
import { holdoutsToPin } from "@/server/experiments/pinned-holdouts";
import { getDb, type Db } from "@/server/db/client";
import { badInput, conflict, notFound } from "@/server/errors";
import { publish } from "@/server/events/bus";
import { exportHolders, removeExportIfUnheld, versionsWords } from "@/server/experiments/export-holders";
import { intentHash } from "@/server/jobs/intent-hash";
import { targetsService } from "@/server/targets/targets.service";
import { scheduleAdvance } from "./chain-advance";
import { isExperimentTerminal } from "./experiment-state";
import { experimentsRepository, type ExperimentRow } from "./experiments.repository";
import { SEARCH_PART_KINDS, ZStartExperimentInput, type TStartExperimentInput } from "./experiments.schema";
import { askedComputer, placedOn } from "./placement";
import { requireTrainable } from "./start-readiness";
import { toDetailView, toListView, type ExperimentDetailView, type ExperimentListView } from "./experiment-views";

/** The project's saved computer when it is still usable, else This computer. */
export async function defaultTargetId(db: Db, projectId: string): Promise<string> {
  const targets = await targetsService(db).list();
  const saved = (await experimentsRepository(db).project(projectId))?.defaultTargetId;
  const chosen = saved ? targets.find((t) => t.id === saved && t.enabled) : undefined;
  if (chosen) return chosen.id;
  const local = targets.find((t) => t.thisComputer && t.enabled);
  if (!local) throw badInput("No training computer is available: This computer is missing or disabled.");
  return local.id;
}

/** The experiment operation `opId` already started: the same intent returns it, another is a conflict. */
export async function startedBefore(db: Db, opId: string, hash: string): Promise<ExperimentRow | null> {
  const existing = await experimentsRepository(db).findByOpId(opId);
  if (existing && existing.intentHash !== hash) throw conflict(`Operation ${opId} already started a different experiment.`);
  return existing;
}

/** A project that exists and is not archived: the only kind an experiment starts in. */
export async function requireOpenProject(db: Db, projectId: string) {
  const project = await experimentsRepository(db).project(projectId);
  if (!project) throw notFound(`There is no project with id ${projectId}.`);
  if (project.archivedAt) throw badInput(`"${project.name}" is archived; restore it to train in it.`);
  return project;
}

type NewExperiment = Omit<Parameters<ReturnType<typeof experimentsRepository>["create"]>[0], "holdouts">;

/**
 * Creates the row, then publishes it and starts its chain. A concurrent start with the
 * same opId that won the insert is returned instead. Every experiment is created here, so
 * this is where the project's reserved holdouts are pinned on it (server/experiments/pinned-holdouts.ts):
 * as of now, or as of `holdoutsAsOf` (a search's parts: when the search was created).
 */
export async function createAndAdvance(db: Db, data: NewExperiment, holdoutsAsOf: Date = new Date()): Promise<ExperimentRow> {
  const repo = experimentsRepository(db);
  let exp;
  try {
    exp = await repo.create({ ...data, holdouts: JSON.stringify(await holdoutsToPin(db, data.projectId, holdoutsAsOf)) });
  } catch (err) {
    const again = await repo.findByOpId(data.opId);
    if (again && again.intentHash === data.intentHash) return again;
    throw err;
  }
  publish({ type: "experiment.changed", experimentId: exp.id, projectId: exp.projectId, status: exp.status });
  void scheduleAdvance(db, exp.id);
  return exp;
}

const isSearchPart = (kind: string) => (SEARCH_PART_KINDS as readonly string[]).includes(kind);

export function experimentsService(db: Db = getDb()) {
  const repo = experimentsRepository(db);

  async function require(id: string) {
    const exp = await repo.find(id);
    if (!exp) throw notFound(`There is no experiment with id ${id}. It may have been deleted.`);
    return exp;
  }

  /** `holdoutsAsOf`: server code only (a search's final experiment), never a caller's input. */
  async function start(raw: TStartExperimentInput, holdoutsAsOf?: Date): Promise<ExperimentDetailView> {
    const input = ZStartExperimentInput.parse(raw);
    const fallback = () => defaultTargetId(db, input.projectId);
    const asked = await askedComputer(input.targetId, fallback);
    const hash = intentHash({ projectId: input.projectId, datasetId: input.datasetId, targetId: asked, settings: input.settings });
    const existing = await startedBefore(db, input.opId, hash);
    if (existing) return get(existing.id);
    await requireOpenProject(db, input.projectId);
    const dataset = await repo.dataset(input.datasetId);
    if (!dataset || dataset.projectId !== input.projectId) throw notFound(`This project has no dataset ${input.datasetId}.`);
    if (dataset.status === "failed") throw badInput(`The dataset "${dataset.name}" could not be read; choose another file.`);
    // Hopeless setups (no feature column, a constant or per-row target, tiny classes) stop here, not in a job.
    requireTrainable(dataset, input.settings);
    const { targetId, placement } = await placedOn(db, asked, fallback);
    const target = await targetsService(db).get(targetId);
    if (!target.enabled) throw badInput(`${target.name} is disabled.`);
    const count = await repo.countInProject(input.projectId);
    const exp = await createAndAdvance(db, {
      projectId: input.projectId,
      opId: input.opId,
      intentHash: hash,
      name: input.name || `${input.settings.mode === "quick" ? "Quick baseline" : "Improve"} #${count + 1} — ${input.settings.target}`,
      targetId,
      targetRevision: target.revision,
      workerId: target.workerId,
      placement: placement ? JSON.stringify(placement) : null,
      datasetId: dataset.id,
      snapshotSha256: dataset.snapshotSha256,
      settings: JSON.stringify(input.settings),
      budgetSeconds: Math.round(input.settings.maxMinutes * 60),
    }, holdoutsAsOf);
    return get(exp.id);
  }

  async function get(id: string): Promise<ExperimentDetailView> {
    const exp = await require(id);
    // Its settings, steps and results are a fine-tuning pipeline's, which this view does not describe.
    if (exp.kind === "finetune") throw badInput(`"${exp.name}" is a fine-tuning experiment: read it with finetune.get (the fine-tuning page, trainyard finetune).`, { code: "finetune_experiment" });
    if (isSearchPart(exp.kind)) throw badInput(`"${exp.name}" is part of a search: read it on the search's page (searches.get, trainyard searches show).`, { code: "search_part" });
    return toDetailView(db, exp);
  }

  return {
    start,
    get,
    list: async (projectId: string, statuses?: string[]): Promise<ExperimentListView[]> =>
      (await repo.list(projectId, statuses)).map(toListView),

    /** Stores the intent first; the chain delivers it to every active job. Any kind of experiment. */
    async cancel(id: string): Promise<ExperimentListView> {
      const exp = await require(id);
      if (!isExperimentTerminal(exp.status)) {
        await repo.requestCancel(id);
        publish({ type: "experiment.changed", experimentId: id, projectId: exp.projectId, status: exp.status });
        await scheduleAdvance(db, id);
      }
      return toListView(await require(id));
    },

    async rerun(id: string, opId: string): Promise<ExperimentDetailView> {
      const exp = await require(id);
      if (exp.kind === "finetune") throw badInput(`"${exp.name}" is a fine-tuning experiment: start it again with finetune.start.`, { code: "finetune_experiment" });
      if (isSearchPart(exp.kind)) throw badInput(`"${exp.name}" is part of a search: start a new search instead.`, { code: "search_part" });
      return start({
        opId,
        projectId: exp.projectId,
        datasetId: exp.datasetId,
        targetId: exp.targetId,
        settings: JSON.parse(exp.settings),
      });
    },

    /** What deleting frees, and what stays because a registry version serves from it. */
    async deletePreview(id: string) {
      const exp = await require(id);
      const holders = exp.exportSha256 ? await exportHolders(db, exp.exportSha256) : null;
      const archive = { what: "export archive", bytes: Number(exp.exportBytes ?? 0) };
      const heldElsewhere = holders && (holders.versions.length > 0 || holders.experiments > 1);
      return {
        id,
        name: exp.name,
        canDelete: isExperimentTerminal(exp.status),
        reason: isExperimentTerminal(exp.status) ? null : "It is still running: cancel it first.",
        frees: holders && !heldElsewhere ? [archive] : [],
        keeps:
          holders && heldElsewhere
            ? [{ ...archive, why: holders.versions.length ? `registered as ${versionsWords(holders.versions)}, which keeps it` : "another experiment has the same export" }]
            : [],
      };
    },

    async delete(id: string): Promise<{ deleted: true }> {
      const exp = await require(id);
      if (!isExperimentTerminal(exp.status)) {
        throw conflict(`"${exp.name}" is still ${exp.status}; cancel it and wait until it has stopped before deleting it.`);
      }
      await repo.delete(id);
      // A registered version owns its copy of what it serves: the archive goes only when nothing holds it.
      if (exp.exportSha256) await removeExportIfUnheld(db, exp.exportSha256);
      publish({ type: "experiment.changed", experimentId: id, projectId: exp.projectId, status: "deleted" });
      return { deleted: true };
    },
  };
}
