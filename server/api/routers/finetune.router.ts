/**
 * Fine-tuning experiments (server/finetune; issue 14). Cancel and delete are the
 * experiments router's, which treat every kind alike; experiments.list shows these rows
 * with kind "finetune".
 * - start ZStartFineTuneInput → FineTuneView (idempotent by opId)
 * - get {id} → FineTuneView (live training from the train job's events)
 * - resume {id, opId} → FineTuneView of the new experiment continuing from the stopped one's checkpoints
 * - tryIt {id, opId, prompt, maxNewTokens} → {tryId}; tryItResult {id, tryId} → TryItResult
 */
import { procedure, router } from "../trpc";
import { fineTuneService } from "@/server/finetune/finetune.service";
import { ZFineTuneIdInput, ZResumeFineTuneInput, ZStartFineTuneInput, ZTryItInput, ZTryItResultInput } from "@/server/finetune/finetune.schema";

export const finetuneRouter = router({
  start: procedure.input(ZStartFineTuneInput).mutation(({ input }) => fineTuneService().start(input)),
  get: procedure.input(ZFineTuneIdInput).query(({ input }) => fineTuneService().get(input.id)),
  resume: procedure.input(ZResumeFineTuneInput).mutation(({ input }) => fineTuneService().resume(input)),
  tryIt: procedure.input(ZTryItInput).mutation(({ input }) => fineTuneService().tryIt(input)),
  tryItResult: procedure.input(ZTryItResultInput).query(({ input }) => fineTuneService().tryItResult(input)),
});
