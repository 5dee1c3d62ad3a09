/**
 * Schedules (issue 31; server/schedules; docs/schedules.md), shapes in contracts/schedules:
 * create, list {projectId}, show {id}, pause / resume / remove {id, revision}, edit
 * {id, revision, …changes}, runNow {id} (answers at once; the run's decision follows in show).
 */
import { ZCreateScheduleInput, ZEditScheduleInput, ZProjectSchedulesInput, ZScheduleActionInput, ZScheduleIdInput } from "@/contracts/schedules/schedules";
import { schedulesService } from "@/server/schedules/schedules.service";
import { procedure, router } from "../trpc";

export const schedulesRouter = router({
  create: procedure.input(ZCreateScheduleInput).mutation(({ input, ctx }) => schedulesService().create(input, ctx.principal)),
  list: procedure.input(ZProjectSchedulesInput).query(({ input }) => schedulesService().list(input.projectId)),
  show: procedure.input(ZScheduleIdInput).query(({ input }) => schedulesService().show(input.id)),
  pause: procedure.input(ZScheduleActionInput).mutation(({ input }) => schedulesService().pause(input)),
  resume: procedure.input(ZScheduleActionInput).mutation(({ input }) => schedulesService().resume(input)),
  edit: procedure.input(ZEditScheduleInput).mutation(({ input }) => schedulesService().edit(input)),
  remove: procedure.input(ZScheduleActionInput).mutation(({ input }) => schedulesService().remove(input)),
  runNow: procedure.input(ZScheduleIdInput).mutation(({ input }) => schedulesService().runNow(input.id)),
});
