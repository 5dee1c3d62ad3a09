/** Database access of schedules and their runs (server/schedules; prisma Schedule, ScheduleRun). */
import type { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";

export type ScheduleRow = NonNullable<Awaited<ReturnType<Db["schedule"]["findUnique"]>>>;
export type RunRow = NonNullable<Awaited<ReturnType<Db["scheduleRun"]["findUnique"]>>>;

export function schedulesRepository(db: Db) {
  return {
    create: (data: Prisma.ScheduleUncheckedCreateInput): Promise<ScheduleRow> => db.schedule.create({ data }),
    find: (id: string): Promise<ScheduleRow | null> => db.schedule.findUnique({ where: { id } }),
    inProject: (projectId: string): Promise<ScheduleRow[]> => db.schedule.findMany({ where: { projectId }, orderBy: { createdAt: "asc" } }),
    all: (): Promise<ScheduleRow[]> => db.schedule.findMany({ orderBy: { createdAt: "asc" } }),
    remove: (id: string, revision: number) => db.schedule.deleteMany({ where: { id, revision } }),
    /** An edit at the revision the caller read; 0 rows: someone changed it meanwhile. */
    edit: async (id: string, revision: number, data: Prisma.ScheduleUncheckedUpdateManyInput): Promise<number> =>
      (await db.schedule.updateMany({ where: { id, revision }, data: { ...data, revision: { increment: 1 } } })).count,
    /** The schedules with something to do: ticking ones, and any with a run being admitted. */
    withWork: async (): Promise<{ id: string }[]> =>
      db.schedule.findMany({ where: { OR: [{ state: "active" }, { runs: { some: { outcome: "admitting" } } }] }, select: { id: true } }),

    /**
     * A tick: the schedule's next slot and the run it recorded (none: the slot is only
     * passed), in one transaction guarded by the slot and pending flag the tick read.
     * False when the guard failed (another tick moved the schedule first).
     */
    recordTick: (
      read: Pick<ScheduleRow, "id" | "nextSlotAt" | "pendingLatest">,
      next: { nextSlotAt: Date; pendingLatest: boolean },
      run: Omit<Prisma.ScheduleRunUncheckedCreateInput, "scheduleId" | "seq"> | null,
    ): Promise<boolean> =>
      db.$transaction(async (tx) => {
        const moved = await tx.schedule.updateMany({ where: { id: read.id, nextSlotAt: read.nextSlotAt, pendingLatest: read.pendingLatest }, data: next });
        if (moved.count === 0) return false;
        if (!run) return true;
        const last = await tx.scheduleRun.findFirst({ where: { scheduleId: read.id }, orderBy: { seq: "desc" }, select: { seq: true } });
        await tx.scheduleRun.create({ data: { ...run, scheduleId: read.id, seq: (last?.seq ?? 0) + 1 } });
        return true;
      }),

    runs: (scheduleId: string): Promise<RunRow[]> => db.scheduleRun.findMany({ where: { scheduleId }, orderBy: { seq: "asc" } }),
    run: (id: string): Promise<RunRow | null> => db.scheduleRun.findUnique({ where: { id } }),
    admitting: (scheduleId: string): Promise<RunRow | null> => db.scheduleRun.findFirst({ where: { scheduleId, outcome: "admitting" }, orderBy: { seq: "asc" } }),
    lastStarted: (scheduleId: string): Promise<RunRow | null> => db.scheduleRun.findFirst({ where: { scheduleId, outcome: "started" }, orderBy: { seq: "desc" } }),
    started: (scheduleId: string): Promise<RunRow[]> => db.scheduleRun.findMany({ where: { scheduleId, outcome: "started" }, orderBy: { seq: "asc" } }),
    updateRun: (id: string, data: Prisma.ScheduleRunUncheckedUpdateInput) => db.scheduleRun.update({ where: { id }, data }),
    /** The schedules whose started run is this experiment or search (its end may admit the next run). */
    schedulesOfRun: async (by: { experimentId: string } | { searchId: string }): Promise<string[]> =>
      (await db.scheduleRun.findMany({ where: { outcome: "started", ...by }, select: { scheduleId: true } })).map((r) => r.scheduleId),
    experiment: (id: string) => db.experiment.findUnique({ where: { id }, select: { id: true, kind: true, status: true, reason: true, results: true } }),
    search: (id: string) => db.search.findUnique({ where: { id }, select: { id: true, status: true, reason: true, finalExperimentId: true } }),
    newestDatasetNamed: (projectId: string, name: string) =>
      db.dataset.findFirst({ where: { projectId, name }, orderBy: { createdAt: "desc" }, select: { id: true, snapshotSha256: true } }),
    schedulesAdmittingDataset: async (datasetId: string): Promise<string[]> =>
      (await db.scheduleRun.findMany({ where: { outcome: "admitting", datasetId }, select: { scheduleId: true } })).map((r) => r.scheduleId),
  };
}

/** Status of each experiment and search the runs started, by id (deleted ones are absent). */
export async function runStatuses(db: Db, runs: RunRow[]): Promise<Record<string, string>> {
  const exps = runs.flatMap((r) => (r.experimentId ? [r.experimentId] : []));
  const searches = runs.flatMap((r) => (r.searchId ? [r.searchId] : []));
  const [e, s] = await Promise.all([
    exps.length ? db.experiment.findMany({ where: { id: { in: exps } }, select: { id: true, status: true } }) : [],
    searches.length ? db.search.findMany({ where: { id: { in: searches } }, select: { id: true, status: true } }) : [],
  ]);
  return Object.fromEntries([...e, ...s].map((x) => [x.id, x.status]));
}
