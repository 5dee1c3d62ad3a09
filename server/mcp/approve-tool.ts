/**
 * approve_promotion: approves the version of a model that waits for the owner under its
 * promotion policy (server/policies), only while the owner's policy lets agents promote
 * (Settings → Agents, off by default — the same switch as promote_version), read on every
 * call. The gates already judged the candidate; approving carries the promotion out. The
 * gates' evidence holds test (and holdout) scores, so only the outcome is answered.
 */
import { z } from "zod";
import { ENABLE_PROMOTE_WORDS } from "@/server/settings/agent-policy";
import { notFound, ToolRefusal } from "./project-scope";
import { tool } from "./tool-spec";

const ZId = z.string().min(1).max(64);

export const ZApprovePromotionInput = z.strictObject({
  modelId: ZId.describe("a model of this project (list_models) with a promotion policy"),
  version: z.int().positive().describe("the version that waits for approval"),
  reason: z.string().trim().min(1).max(1000).describe("why it should be promoted; recorded with the decision"),
});

export const ZApprovePromotionOutput = z.strictObject({
  modelId: ZId,
  version: z.int(),
  /** baking: selected, and its deployment switches to it under the bake (it may still go back). */
  state: z.enum(["promoted", "baking", "failed", "approved"]),
  words: z.string(),
});

export const approvePromotion = tool({
  name: "approve_promotion",
  description:
    "Approve a version of one of the project's models that waits for approval under the model's promotion policy, only when the owner's policy allows agents to promote (off by default; otherwise refused with how the owner enables it). " +
    "The policy's gates have already judged it; approving makes it the selected version (and a deployment following the alias switches). Answers the outcome in words; scores are never returned.",
  input: ZApprovePromotionInput,
  output: ZApprovePromotionOutput,
  writes: true,
  async run(scope, input) {
    const { api, call } = scope;
    const policy = await call(() => api.settings.agents.query());
    if (!policy.caller.mayWrite) throw new ToolRefusal("This API token is read-only: it cannot approve.");
    if (!policy.caller.mayPromote) {
      throw new ToolRefusal(`Agents may not approve promotions here: the owner's policy "agents.mayPromote" is off (the default). ${ENABLE_PROMOTE_WORDS} Until then, tell the owner which version you would approve and why.`);
    }
    const model = (await call(() => api.models.list.query({ projectId: scope.projectId }))).find((m) => m.id === input.modelId);
    if (!model) throw notFound(scope, "model", input.modelId);
    const p = await call(() => api.policies.get.query({ modelId: model.id }));
    const waiting = p?.pending.find((c) => c.version === input.version);
    if (!waiting) throw new ToolRefusal(`Version ${input.version} of "${model.name}" does not wait for approval${p ? "" : " (the model has no promotion policy)"}.`);
    const after = await call(() => api.policies.approve.mutate({ modelId: model.id, candidateId: waiting.id, reason: input.reason }));
    const c = after.candidates.find((x) => x.id === waiting.id);
    const state: z.infer<typeof ZApprovePromotionOutput>["state"] = c?.state === "promoted" ? "promoted" : c?.state === "switching" || c?.state === "baking" ? "baking" : c?.state === "failed" ? "failed" : "approved";
    const words =
      state === "promoted"
        ? `Version ${input.version} of "${model.name}" is now selected.`
        : state === "baking"
          ? `Version ${input.version} of "${model.name}" is now selected; its deployment switches to it and bakes, and goes back to the version before on a breach (get it again later).`
          : state === "failed"
          ? `Version ${input.version} was approved but not promoted: the model moved since the gates judged it. Read list_models again.`
          : `Version ${input.version} is approved; the promotion is being carried out.`;
    return { modelId: model.id, version: input.version, state, words };
  },
});
