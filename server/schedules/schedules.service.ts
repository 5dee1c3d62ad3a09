/**
 * Schedules (issue 31; docs/schedules.md): make, read, pause, resume, edit, remove and run
 * now. The ticking itself is tick.ts, driven by the schedules reconciler; this service only
 * writes what the owner asked and lets the reconciler know (`schedule.changed`). Pause,
 * resume, edit and remove name the revision they read.
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import {
  ZCreateScheduleInput,
  ZEditScheduleInput,
  ZScheduleActionInput,
  ZScheduleClock,
  type CreateScheduleInput,
  type EditScheduleInput,
  type RunNowAnswer,
  type ScheduleSpec,
  type ScheduleView,
} from "@/contracts/schedules/schedules";
import { WORKER_PROTOCOL } from "@/contracts/worker";
import type { Principal } from "@/server/auth/principal";
import { getDb, type Db } from "@/server/db/client";
import { badInput, conflict, notFound } from "@/server/errors";
import { defaultTargetId, requireOpenProject } from "@/server/experiments/experiments.service";
import { targetsService } from "@/server/targets/targets.service";
import { WorkerRefused } from "@/server/targets/transport-errors";
import { isUnreachable } from "@/server/targets/unreachable";
import { budgetMinutesOf } from "./admission";
import { capReached } from "./caps";
import { scheduleNow } from "./clock";
import { scheduleChanged, moveSchedule } from "./schedule-store";
import { scheduleView } from "./schedule-views";
import { runStatuses, schedulesRepository, type ScheduleRow } from "./schedules.repository";
import { slotAfter, slotAtOrBefore } from "./slots";
import { activeRunSeq, admit } from "./tick";

/** "species from penguins.csv", "fine-tune of tiny-gpt2 on dataset \"chats.jsonl\"". */
function defaultName(source: CreateScheduleInput["source"], spec: ScheduleSpec): string {
  const what = spec.mode === "finetune" ? `fine-tune of ${path.basename(spec.basePath)}` : spec.target;
  return `${what} from ${source.kind === "path" ? path.basename(source.path) : `dataset "${source.name}"`}`;
}

export function schedulesService(db: Db = getDb()) {
  const repo = schedulesRepository(db);

  async function require(id: string): Promise<ScheduleRow> {
    const s = await repo.find(id);
    if (!s) throw notFound(`There is no schedule with id ${id}. It may have been removed.`);
    return s;
  }

  async function requireRevision(id: string, revision: number): Promise<ScheduleRow> {
    const s = await require(id);
    if (s.revision !== revision) throw conflict(`Schedule "${s.name}" changed since you read it (revision ${revision}, now ${s.revision}); read it again.`);
    return s;
  }

  async function view(s: ScheduleRow): Promise<ScheduleView> {
    const runs = await repo.runs(s.id);
    const computer = await targetsService(db).requireTarget(JSON.parse(s.source).computerId).then((t) => t.name, () => "(removed computer)");
    return scheduleView(s, runs, computer, await runStatuses(db, runs));
  }

  /** Refuses a file the computer says it cannot read; a computer that does not answer is checked at the first tick. */
  async function checkSource(computerId: string, filePath: string): Promise<void> {
    const target = await targetsService(db).requireTarget(computerId);
    try {
      await targetsService(db).execOn(target, { protocol: WORKER_PROTOCOL, op: "peek", path: filePath, maxRows: 1, maxBytes: 1 });
    } catch (err) {
      if (err instanceof WorkerRefused) {
        const hint = err.code === "path_not_allowed" ? ` Add its folder to ${target.name}'s allowed folders (Settings → Data for This computer, servers.md for an SSH computer).` : "";
        throw badInput(`${target.name} cannot read ${filePath}: ${err.message}.${hint}`, { code: err.code });
      }
      if (!isUnreachable(err)) throw err;
    }
  }

  return {
    async create(raw: CreateScheduleInput, principal: Principal): Promise<ScheduleView> {
      const input = ZCreateScheduleInput.parse(raw);
      const again = await db.schedule.findUnique({ where: { opId: input.opId } });
      if (again) return view(again);
      await requireOpenProject(db, input.projectId);
      const source = { ...input.source, computerId: input.source.computerId ?? (await defaultTargetId(db, input.projectId)) };
      if (source.kind === "path") await checkSource(source.computerId, source.path);
      else await targetsService(db).requireTarget(source.computerId);
      const now = scheduleNow();
      const s = await repo.create({
        opId: input.opId,
        projectId: input.projectId,
        name: input.name || defaultName(source, input.spec),
        state: input.paused ? "paused" : "active",
        source: JSON.stringify(source),
        spec: JSON.stringify(input.spec),
        clock: JSON.stringify(input.clock),
        maxRuns: input.maxRuns,
        maxComputeMinutes: input.maxComputeMinutes,
        minNewRows: input.minNewRows,
        nextSlotAt: slotAfter(input.clock, now, now),
        createdBy: JSON.stringify(principal),
        // The anchor of an "every N minutes" clock, on the schedules' clock.
        createdAt: now,
      });
      await scheduleChanged(db, s.id);
      return view(s);
    },

    list: async (projectId: string): Promise<ScheduleView[]> => Promise.all((await repo.inProject(projectId)).map(view)),
    all: async (): Promise<ScheduleView[]> => Promise.all((await repo.all()).map(view)),
    show: async (id: string): Promise<ScheduleView> => view(await require(id)),

    async pause(raw: { id: string; revision: number }): Promise<ScheduleView> {
      const input = ZScheduleActionInput.parse(raw);
      const s = await requireRevision(input.id, input.revision);
      if (s.state !== "active") throw badInput(`Schedule "${s.name}" is ${s.state}, not active.`);
      await moveSchedule(db, s.id, "paused", { reason: "Paused by the owner.", onlyFrom: "active" });
      return view(await require(s.id));
    },

    async resume(raw: { id: string; revision: number }): Promise<ScheduleView> {
      const input = ZScheduleActionInput.parse(raw);
      const s = await requireRevision(input.id, input.revision);
      if (s.state !== "paused") throw badInput(`Schedule "${s.name}" is ${s.state}, not paused.`);
      // Slots missed while paused are not made up: the clock goes on from now.
      const now = scheduleNow();
      await moveSchedule(db, s.id, "active", { reason: "Resumed by the owner.", onlyFrom: "paused", patch: { nextSlotAt: slotAfter(ZScheduleClock.parse(JSON.parse(s.clock)), s.createdAt, now) } });
      return view(await require(s.id));
    },

    async edit(raw: EditScheduleInput): Promise<ScheduleView> {
      const input = ZEditScheduleInput.parse(raw);
      const s = await requireRevision(input.id, input.revision);
      const now = scheduleNow();
      const changed = await repo.edit(s.id, s.revision, {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.spec ? { spec: JSON.stringify(input.spec) } : {}),
        ...(input.clock ? { clock: JSON.stringify(input.clock), nextSlotAt: slotAfter(input.clock, s.createdAt, now) } : {}),
        ...(input.maxRuns !== undefined ? { maxRuns: input.maxRuns } : {}),
        ...(input.maxComputeMinutes !== undefined ? { maxComputeMinutes: input.maxComputeMinutes } : {}),
        ...(input.minNewRows !== undefined ? { minNewRows: input.minNewRows } : {}),
      });
      if (!changed) throw conflict(`Schedule "${s.name}" changed while you edited it; read it again.`);
      let edited = await require(s.id);
      // A raised cap lets a finished schedule go on.
      if (edited.state === "finished" && !(await capReached(db, edited, budgetMinutesOf(JSON.parse(edited.spec))))) {
        await moveSchedule(db, s.id, "active", { reason: "The cap was raised.", onlyFrom: "finished", patch: { nextSlotAt: slotAfter(ZScheduleClock.parse(JSON.parse(edited.clock)), edited.createdAt, now) } });
        edited = await require(s.id);
      }
      await scheduleChanged(db, s.id);
      return view(edited);
    },

    /** Removes the schedule and its runs' records; the experiments and searches it started stay. */
    async remove(raw: { id: string; revision: number }): Promise<{ removed: true }> {
      const input = ZScheduleActionInput.parse(raw);
      const s = await requireRevision(input.id, input.revision);
      if (!(await repo.remove(s.id, s.revision)).count) throw conflict(`Schedule "${s.name}" changed meanwhile; read it again.`);
      return { removed: true };
    },

    /**
     * Admits a run now, for the slot the clock is in (a run on the same data in the same
     * slot is one run). Refused while a run is admitted or training, or past a cap. The
     * answer is at once: "admitting" until the tick decides (show the schedule to follow).
     */
    async runNow(id: string): Promise<RunNowAnswer> {
      const s = await require(id);
      const refused = (reason: string): RunNowAnswer => ({ seq: null, outcome: "refused", reason, experimentId: null });
      if (s.state === "finished") return refused(s.reason ?? "The schedule reached a cap.");
      const admitting = await repo.admitting(s.id);
      if (admitting) return refused(`Run ${admitting.seq} is still being admitted.`);
      const busy = await activeRunSeq(db, s);
      if (busy !== null) return refused(`Run ${busy} is still training; the schedule runs once at a time.`);
      const cap = await capReached(db, s, budgetMinutesOf(JSON.parse(s.spec)));
      if (cap) return refused(cap.words);
      const now = scheduleNow();
      const slotAt = slotAtOrBefore(ZScheduleClock.parse(JSON.parse(s.clock)), s.createdAt, now);
      const ok = await admit(db, s, { trigger: "manual", tickKey: `manual:${randomUUID()}`, slotAt, next: s.nextSlotAt, outcome: "admitting", reason: "Run now, asked by the owner." });
      if (!ok) return refused("The schedule ticked at the same moment; look at its runs.");
      const run = (await repo.admitting(s.id))!;
      return { seq: run.seq, outcome: "admitting", reason: run.reason, experimentId: null };
    },
  };
}

export type SchedulesService = ReturnType<typeof schedulesService>;
