/**
 * Prisma access for snapshots, their copies, datasets, cached checks and split contracts,
 * plus the read-only questions datasets ask of jobs and experiments (who references a
 * snapshot). Results leave as plain rows; views are built in datasets.views.ts.
 */
import { controllerJobLifecycle } from "@/contracts/lifecycles";
import { getDb, type Db } from "@/server/db/client";
import { lifecycleEvents } from "@/server/lifecycle/events";
import { transition, transitionIn } from "@/server/lifecycle/transition";
import { checkStore, datasetStore, splitStore } from "./data-lifecycles";

export interface SnapshotRow {
  sha256: string;
  bytes: number;
  format: string | null;
  rowCount: number | null;
  columns: string | null;
  createdAt: Date;
}
export interface DatasetRow {
  id: string;
  projectId: string;
  name: string;
  snapshotSha256: string;
  sourceKind: string;
  sourceName: string;
  /** "table" | "examples" (dataset-kind.ts). */
  kind: string;
  encoding: string;
  status: string;
  error: string | null;
  profile: string | null;
  profileJobId: string | null;
  createdAt: Date;
  updatedAt: Date;
}
export interface CheckRow {
  id: string;
  datasetId: string;
  target: string;
  positiveClassKey: string;
  status: string;
  jobId: string | null;
  result: string | null;
  error: string | null;
}
export interface SplitRow {
  id: string;
  snapshotSha256: string;
  settingsHash: string;
  settings: string;
  outputSha256: string | null;
  contract: string | null;
  jobId: string | null;
  status: string;
  error: string | null;
}

const snap = (s: { sha256: string; bytes: bigint; format: string | null; rowCount: number | null; columns: string | null; createdAt: Date }): SnapshotRow => ({
  ...s,
  bytes: Number(s.bytes),
});

export function datasetsRepository(db: Db = getDb()) {
  return {
    snapshots: {
      find: async (sha256: string) => {
        const s = await db.snapshot.findUnique({ where: { sha256 } });
        return s ? snap(s) : null;
      },
      /** Same bytes, same row: registering twice reuses it. */
      ensure: async (sha256: string, bytes: number) =>
        snap(await db.snapshot.upsert({ where: { sha256 }, create: { sha256, bytes: BigInt(bytes) }, update: {} })),
      describe: (sha256: string, data: { format: string; rowCount: number; columns: string }) => db.snapshot.update({ where: { sha256 }, data }),
      addCopy: (sha256: string, workerId: string, targetId: string) =>
        db.snapshotCopy.upsert({
          where: { snapshotSha256_workerId: { snapshotSha256: sha256, workerId } },
          create: { snapshotSha256: sha256, workerId, targetId },
          update: { targetId },
        }),
      copies: (sha256: string) => db.snapshotCopy.findMany({ where: { snapshotSha256: sha256 }, select: { workerId: true, targetId: true } }),
      remove: async (sha256: string) => {
        const splits = await db.splitContract.findMany({ where: { snapshotSha256: sha256 }, select: { id: true } });
        await lifecycleEvents(db).removeFor(splitStore.lifecycle.name, splits.map((x) => x.id));
        await db.splitContract.deleteMany({ where: { snapshotSha256: sha256 } });
        await db.snapshot.delete({ where: { sha256 } }); // copies cascade
      },
    },
    datasets: {
      find: (id: string): Promise<DatasetRow | null> => db.dataset.findUnique({ where: { id } }),
      findInProject: (projectId: string, snapshotSha256: string): Promise<DatasetRow | null> =>
        db.dataset.findUnique({ where: { projectId_snapshotSha256: { projectId, snapshotSha256 } } }),
      create: (data: Pick<DatasetRow, "projectId" | "name" | "snapshotSha256" | "sourceKind" | "sourceName" | "kind" | "encoding">): Promise<DatasetRow> =>
        db.dataset.create({ data: { ...data, status: "profiling" } }),
      /** Fields outside the lifecycle; the status moves only through transition() (settle.ts, reprofile). */
      update: (id: string, data: Partial<Pick<DatasetRow, "profileJobId" | "name" | "sourceName">>) => db.dataset.update({ where: { id }, data }),
      /** Profiles the dataset again (another encoding): its old profile and job are dropped. */
      reprofile: async (id: string, encoding: string, reason: string): Promise<DatasetRow> => {
        await transition(db, datasetStore, id, "profiling", { reason, patch: { encoding, error: null, profile: null, profileJobId: null } });
        return db.dataset.findUniqueOrThrow({ where: { id } });
      },
      list: (projectId: string): Promise<DatasetRow[]> => db.dataset.findMany({ where: { projectId }, orderBy: { createdAt: "desc" } }),
      bySnapshot: (snapshotSha256: string): Promise<DatasetRow[]> => db.dataset.findMany({ where: { snapshotSha256 } }),
      /** Names of the given projects (a deleted project is simply absent). */
      projectNames: async (projectIds: string[]): Promise<Map<string, string>> =>
        new Map((await db.project.findMany({ where: { id: { in: projectIds } }, select: { id: true, name: true } })).map((p) => [p.id, p.name])),
      profiling: (): Promise<DatasetRow[]> => db.dataset.findMany({ where: { status: "profiling" } }),
      byProfileJob: (jobId: string): Promise<DatasetRow | null> => db.dataset.findFirst({ where: { profileJobId: jobId } }),
      remove: async (id: string) => {
        const checks = await db.datasetCheck.findMany({ where: { datasetId: id }, select: { id: true } });
        await lifecycleEvents(db).removeFor(checkStore.lifecycle.name, checks.map((c) => c.id));
        await lifecycleEvents(db).removeFor(datasetStore.lifecycle.name, [id]);
        await db.datasetCheck.deleteMany({ where: { datasetId: id } });
        await db.dataset.delete({ where: { id } });
      },
    },
    checks: {
      find: (datasetId: string, target: string, positiveClassKey: string): Promise<CheckRow | null> =>
        db.datasetCheck.findUnique({ where: { datasetId_target_positiveClassKey: { datasetId, target, positiveClassKey } } }),
      /** Creates the check, or runs a settled one again (one transition, with its event). */
      upsertRunning: (datasetId: string, target: string, positiveClassKey: string): Promise<CheckRow> =>
        db.$transaction(async (tx) => {
          const key = { datasetId_target_positiveClassKey: { datasetId, target, positiveClassKey } };
          const fresh = { jobId: null, result: null, error: null };
          const prev = await tx.datasetCheck.findUnique({ where: key, select: { id: true, status: true } });
          if (!prev) return tx.datasetCheck.upsert({ where: key, create: { datasetId, target, positiveClassKey, status: "running" }, update: {} });
          if (prev.status === "running") return tx.datasetCheck.update({ where: { id: prev.id }, data: fresh });
          await transitionIn(tx, checkStore, prev.id, "running", { reason: "asked again", patch: fresh });
          return tx.datasetCheck.findUniqueOrThrow({ where: { id: prev.id } });
        }),
      /** Fields outside the lifecycle; the status moves only through transition() (settle.ts). */
      update: (id: string, data: Partial<Pick<CheckRow, "jobId">>) => db.datasetCheck.update({ where: { id }, data }),
      running: (): Promise<CheckRow[]> => db.datasetCheck.findMany({ where: { status: "running" } }),
      byId: (id: string): Promise<CheckRow | null> => db.datasetCheck.findUnique({ where: { id } }),
      byJob: (jobId: string): Promise<CheckRow | null> => db.datasetCheck.findFirst({ where: { jobId } }),
    },
    splits: {
      find: (snapshotSha256: string, settingsHash: string): Promise<SplitRow | null> =>
        db.splitContract.findUnique({ where: { snapshotSha256_settingsHash: { snapshotSha256, settingsHash } } }),
      findById: (id: string): Promise<SplitRow | null> => db.splitContract.findUnique({ where: { id } }),
      /** Creates the row, or resets a failed one to run again; concurrent callers meet on the unique key. */
      ensure: (snapshotSha256: string, settingsHash: string, settings: string): Promise<SplitRow> =>
        db.splitContract.upsert({
          where: { snapshotSha256_settingsHash: { snapshotSha256, settingsHash } },
          create: { snapshotSha256, settingsHash, settings, status: "running" },
          update: {},
        }),
      /** Fields outside the lifecycle; the status moves only through transition() (settle.ts, rerun). */
      update: (id: string, data: Partial<Pick<SplitRow, "jobId">>) => db.splitContract.update({ where: { id }, data }),
      /** Records the contract a succeeded split job made (running or failed → ready). */
      markReady: (id: string, made: Pick<SplitRow, "jobId" | "outputSha256" | "contract">) =>
        transition(db, splitStore, id, "ready", { reason: `made by job ${made.jobId}`, patch: { ...made, error: null } }),
      /** Runs a failed split again from scratch. */
      rerun: async (id: string): Promise<SplitRow> => {
        const fresh = { jobId: null, error: null, contract: null, outputSha256: null };
        await transition(db, splitStore, id, "running", { reason: "asked again", patch: fresh });
        return db.splitContract.findUniqueOrThrow({ where: { id } });
      },
      running: (): Promise<SplitRow[]> => db.splitContract.findMany({ where: { status: "running" } }),
      byJob: (jobId: string): Promise<SplitRow | null> => db.splitContract.findFirst({ where: { jobId } }),
    },
    references: {
      /** Reserved holdouts stored in the same bytes (server/holdouts): they keep the blob. */
      holdoutsIn: async (sha256: string) => db.holdout.count({ where: { sha256 } }),
      experimentsUsing: (datasetId: string) =>
        db.experiment.findMany({ where: { datasetId }, select: { id: true, name: true, status: true }, orderBy: { createdAt: "desc" } }),
      exportsOf: (snapshotSha256: string) =>
        db.experiment.findMany({ where: { snapshotSha256, exportSha256: { not: null } }, select: { id: true, name: true } }),
      /** Fine-tuning experiments whose base model is this blob (an uploaded .gguf or model-folder file). */
      baseModelOf: (sha256: string) =>
        db.experiment.findMany({ where: { kind: "finetune", settings: { contains: sha256 } }, select: { id: true, name: true } }),
      /** Active jobs whose input names the snapshot (`sha256:<hash>`). */
      activeJobsUsing: (snapshotSha256: string) =>
        db.job.findMany({
          where: { state: { in: [...controllerJobLifecycle.active] }, input: { contains: `sha256:${snapshotSha256}` } },
          select: { id: true, recipe: true, jobName: true, state: true },
        }),
    },
  };
}
