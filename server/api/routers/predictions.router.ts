import { procedure, router } from "../trpc";
import { predictionsService } from "@/server/predictions/predictions.service";
import { ZTryRowInput } from "@/server/predictions/predictions.schema";

export const predictionsRouter = router({
  /** Predicts one row typed in the form; waits for the short predict job (bounded). */
  tryRow: procedure.input(ZTryRowInput).mutation(({ input }) => predictionsService().tryRow(input)),
});
