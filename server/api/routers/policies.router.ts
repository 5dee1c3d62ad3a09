/**
 * Promotion policies (issue 32, server/policies):
 * - get {modelId} → PolicyView | null; show {modelId} → PolicyView (NOT_FOUND without a policy); set {modelId, mode, deploymentId?, approvalHours?, maxPerDay?, cooldownMinutes?} → PolicyView
 * - approve / reject {modelId, candidateId, reason?} → PolicyView (approve carries the promotion out)
 */
import { procedure, router } from "../trpc";
import { ZDecideInput, ZModelIdInput, ZSetPolicyInput } from "@/server/policies/policies.schema";
import { policiesService } from "@/server/policies/policies.service";

export const policiesRouter = router({
  get: procedure.input(ZModelIdInput).query(({ input }) => policiesService().find(input)),
  show: procedure.input(ZModelIdInput).query(({ input }) => policiesService().show(input)),
  set: procedure.input(ZSetPolicyInput).mutation(({ input }) => policiesService().set(input)),
  approve: procedure.input(ZDecideInput).mutation(({ input, ctx }) => policiesService().approve(input, ctx.principal)),
  reject: procedure.input(ZDecideInput).mutation(({ input, ctx }) => policiesService().reject(input, ctx.principal)),
});
