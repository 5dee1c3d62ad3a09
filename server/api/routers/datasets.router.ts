import { procedure, router } from "../trpc";
import { datasetsService } from "@/server/datasets/datasets.service";
import {
  ZChecksInput,
  ZDatasetIdInput,
  ZEnsureSplitInput,
  ZListDatasetsInput,
  ZRegisterPathInput,
  ZReprofileInput,
} from "@/server/datasets/datasets.schema";

/** Uploads arrive through the streaming route POST /api/datasets/upload, not tRPC. */
export const datasetsRouter = router({
  list: procedure.input(ZListDatasetsInput).query(({ input }) => datasetsService().list(input.projectId)),
  get: procedure.input(ZDatasetIdInput).query(({ input }) => datasetsService().get(input.id)),
  registerPath: procedure.input(ZRegisterPathInput).mutation(({ input }) => datasetsService().registerPath(input)),
  preview: procedure.input(ZDatasetIdInput).query(({ input }) => datasetsService().preview(input.id)),
  profileStatus: procedure.input(ZDatasetIdInput).query(({ input }) => datasetsService().profileStatus(input.id)),
  reprofile: procedure.input(ZReprofileInput).mutation(({ input }) => datasetsService().reprofile(input.id, input.encoding)),
  startChecks: procedure.input(ZChecksInput).mutation(({ input }) => datasetsService().startChecks(input)),
  checks: procedure.input(ZChecksInput).query(({ input }) => datasetsService().getChecks(input)),
  split: procedure.input(ZEnsureSplitInput).mutation(({ input }) => datasetsService().startSplit(input)),
  deletePreview: procedure.input(ZDatasetIdInput).query(({ input }) => datasetsService().deletePreview(input.id)),
  delete: procedure.input(ZDatasetIdInput).mutation(({ input }) => datasetsService().delete(input.id)),
});
