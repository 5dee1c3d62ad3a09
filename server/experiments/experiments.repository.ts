/** Prisma access for experiments and the rows their chain reads (datasets, projects, jobs). */
import { experimentLifecycle } from "@/contracts/lifecycles";
import { getDb, type Db } from "@/server/db/client";
import { SEARCH_PART_KINDS, type ExperimentKind } from "./experiments.schema";

export function experimentsRepository(db: Db = getDb()) {
  return {
    find: (id: string) => db.experiment.findUnique({ where: { id } }),
    findByOpId: (opId: string) => db.experiment.findUnique({ where: { opId } }),
    /** The attempt that resumed this experiment (fine-tuning), the first if an old database holds more. */
    resumedBy: (id: string) => db.experiment.findFirst({ where: { resumedFromId: id }, orderBy: { createdAt: "asc" } }),
    create: (data: {
      projectId: string;
      opId: string;
      intentHash: string;
      name: string;
      targetId: string;
      targetRevision: number;
      workerId: string | null;
      /** JSON of server/experiments/placement.ts: set when it was started on "any" computer. */
      placement?: string | null;
      datasetId: string;
      snapshotSha256: string;
      settings: string;
      budgetSeconds: number;
      /** Absent: a tabular experiment. A fine-tuning one names its held-out data and the experiment it resumes. */
      kind?: ExperimentKind;
      evalDatasetId?: string | null;
      resumedFromId?: string | null;
      /** JSON of server/experiments/pinned-holdouts.ts; written by createAndAdvance only. */
      holdouts?: string;
    }) =>
      db.$transaction(async (tx) => {
        const exp = await tx.experiment.create({ data });
        await tx.experimentTransition.create({ data: { experimentId: exp.id, from: "none", to: "running", reason: "started" } });
        return exp;
      }),
    list: (projectId: string, statuses?: string[]) =>
      db.experiment.findMany({
        // A search's trials and its baseline scoring show on the search's page, not as experiments of their own.
        where: { projectId, kind: { notIn: [...SEARCH_PART_KINDS] }, ...(statuses?.length ? { status: { in: statuses } } : {}) },
        orderBy: { createdAt: "desc" },
      }),
    /** Who holds an export archive (export-holders.ts): the experiments that made it, and the registry's versions not removed, with their model's name. */
    exportHolders: async (exportSha256: string) => {
      const [experiments, versions] = await Promise.all([
        db.experiment.count({ where: { exportSha256 } }),
        db.modelVersion.findMany({ where: { exportSha256, NOT: { status: "removed" } }, select: { modelId: true, number: true } }),
      ]);
      const models = await db.registeredModel.findMany({ where: { id: { in: [...new Set(versions.map((v) => v.modelId))] } }, select: { id: true, name: true } });
      const names = new Map(models.map((m) => [m.id, m.name]));
      return { experiments, versions: versions.map((v) => ({ modelName: names.get(v.modelId) ?? "?", number: v.number })) };
    },
    active: () => db.experiment.findMany({ where: { status: { in: [...experimentLifecycle.active] } }, select: { id: true } }),
    countInProject: (projectId: string) => db.experiment.count({ where: { projectId, kind: { notIn: [...SEARCH_PART_KINDS] } } }),
    requestCancel: (id: string) =>
      db.experiment.updateMany({ where: { id, cancelRequestedAt: null }, data: { cancelRequestedAt: new Date() } }),
    markBudgetStart: (id: string) => db.experiment.update({ where: { id }, data: { startedAt: new Date() } }),
    setPhase: (id: string, phase: string) => db.experiment.updateMany({ where: { id, NOT: { phase } }, data: { phase } }),
    /** What a running experiment is doing now, in words (its status's reason is set by transitions). */
    setNote: (id: string, progressNote: string | null) =>
      db.experiment.updateMany({
        // Only when it differs; SQL's NOT (note = x) is never true of a NULL note, so "none yet" is asked for by name.
        where: { id, ...(progressNote === null ? { NOT: { progressNote: null } } : { OR: [{ progressNote: null }, { NOT: { progressNote } }] }) },
        data: { progressNote },
      }),
    /** The SplitContract its split step made (written once, when that step has succeeded). */
    setSplitContract: (id: string, splitContractId: string) =>
      db.experiment.updateMany({ where: { id, splitContractId: null }, data: { splitContractId } }),
    delete: (id: string) =>
      db.$transaction([
        db.experimentTransition.deleteMany({ where: { experimentId: id } }),
        db.experiment.delete({ where: { id } }),
      ]),
    transitions: (id: string) => db.experimentTransition.findMany({ where: { experimentId: id }, orderBy: { id: "asc" } }),
    jobsByOpIds: (opIds: string[]) => db.job.findMany({ where: { opId: { in: opIds } } }),
    dataset: (id: string) => db.dataset.findUnique({ where: { id } }),
    project: (id: string) => db.project.findUnique({ where: { id } }),
  };
}

export type ExperimentRow = NonNullable<Awaited<ReturnType<ReturnType<typeof experimentsRepository>["find"]>>>;
