import { procedure, router } from "../trpc";
import { prepareEnvironment } from "@/server/jobs/environments";
import { ZPrepareRecipeInput } from "@/server/jobs/jobs.schema";
import { targetsService } from "@/server/targets/targets.service";
import { ZTargetIdInput } from "@/server/targets/targets.schema";

export const targetsRouter = router({
  list: procedure.query(() => targetsService().list()),
  get: procedure.input(ZTargetIdInput).query(({ input }) => targetsService().get(input.id)),
  probe: procedure.input(ZTargetIdInput).mutation(({ input }) => targetsService().probe(input.id)),
  /** Starts building a recipe's environment (a tracked job); does not wait for it. */
  prepareRecipe: procedure.input(ZPrepareRecipeInput).mutation(({ input }) => prepareEnvironment(input.targetId, input.recipe)),
});
