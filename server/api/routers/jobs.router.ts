import { procedure, router } from "../trpc";
import { jobsService } from "@/server/jobs/jobs.service";
import { ZAdmitJobInput, ZJobIdInput, ZJobLogsInput, ZListJobsInput } from "@/server/jobs/jobs.schema";

export const jobsRouter = router({
  list: procedure.input(ZListJobsInput).query(({ input }) => jobsService().list(input)),
  get: procedure.input(ZJobIdInput).query(({ input }) => jobsService().get(input.id)),
  logs: procedure.input(ZJobLogsInput).query(({ input }) => jobsService().logs(input)),
  admit: procedure.input(ZAdmitJobInput).mutation(({ input }) => jobsService().admitJob(input)),
  cancel: procedure.input(ZJobIdInput).mutation(({ input }) => jobsService().cancelJob(input.id)),
});
