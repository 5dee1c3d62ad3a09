/**
 * Reserved holdouts (issue 32). Creating one is an upload (POST /api/holdouts/upload), or:
 * - reserveNewest {projectId, datasetId, timeColumn, percent?, name?} → HoldoutView: a dataset's newest rows (runs a bounded job)
 * - list {projectId} → HoldoutView[]
 * - compare {modelId, versions, holdoutId?} → HoldoutCompareResult (runs bounded jobs; a mutation, so a read-only token cannot start them); refused through the agent tools
 * - verdict {modelId, versions: [a, b], holdoutId?} → HoldoutVerdictView: which one the holdout favours, no values (what compare_on_holdout answers)
 * - deletePreview {id} → HoldoutDeletePreview; delete {id} → HoldoutDeleteResult (refused while an experiment, search or job still reads its rows)
 */
import { procedure, router } from "../trpc";
import { ZCompareOnHoldoutInput, ZHoldoutIdInput, ZListHoldoutsInput, ZReserveNewestInput } from "@/server/holdouts/holdouts.schema";
import { holdoutsService } from "@/server/holdouts/holdouts.service";

export const holdoutsRouter = router({
  reserveNewest: procedure.input(ZReserveNewestInput).mutation(({ input }) => holdoutsService().reserveNewest(input)),
  list: procedure.input(ZListHoldoutsInput).query(({ input }) => holdoutsService().list(input)),
  compare: procedure.input(ZCompareOnHoldoutInput).mutation(({ input, ctx }) => holdoutsService().compare(input, { viaAgentTools: Boolean(ctx.viaAgentTools) })),
  verdict: procedure.input(ZCompareOnHoldoutInput).mutation(({ input }) => holdoutsService().verdict(input)),
  deletePreview: procedure.input(ZHoldoutIdInput).query(({ input }) => holdoutsService().deletePreview(input)),
  delete: procedure.input(ZHoldoutIdInput).mutation(({ input }) => holdoutsService().delete(input)),
});
