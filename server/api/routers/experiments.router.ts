import { procedure, router } from "../trpc";
import { experimentsService } from "@/server/experiments/experiments.service";
import {
  ZExperimentIdInput,
  ZListExperimentsInput,
  ZRerunInput,
  ZStartExperimentInput,
} from "@/server/experiments/experiments.schema";
import { ZReadinessInput, ZTargetOptionsInput } from "@/server/experiments/readiness.schema";
import { readiness, targetOptions } from "@/server/experiments/start-readiness";
import { getDb } from "@/server/db/client";

export const experimentsRouter = router({
  start: procedure.input(ZStartExperimentInput).mutation(({ input }) => experimentsService().start(input)),
  /** Whether these settings can train, with the reasons (the same rules start applies). */
  readiness: procedure.input(ZReadinessInput).query(({ input }) => readiness(getDb(), input)),
  targetOptions: procedure.input(ZTargetOptionsInput).query(({ input }) => targetOptions(getDb(), input.datasetId)),
  list: procedure.input(ZListExperimentsInput).query(({ input }) => experimentsService().list(input.projectId, input.status)),
  get: procedure.input(ZExperimentIdInput).query(({ input }) => experimentsService().get(input.id)),
  cancel: procedure.input(ZExperimentIdInput).mutation(({ input }) => experimentsService().cancel(input.id)),
  rerun: procedure.input(ZRerunInput).mutation(({ input }) => experimentsService().rerun(input.id, input.opId)),
  deletePreview: procedure.input(ZExperimentIdInput).query(({ input }) => experimentsService().deletePreview(input.id)),
  delete: procedure.input(ZExperimentIdInput).mutation(({ input }) => experimentsService().delete(input.id)),
});
