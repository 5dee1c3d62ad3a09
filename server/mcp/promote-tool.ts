/**
 * promote_version: points a model's "selected" alias at a version, only while the owner's
 * policy lets agents promote (Settings → Agents, off by default; server/settings/
 * agent-policy.ts), read on every call so turning it off takes effect at once. It promotes
 * only what the registry's gate allows on the evidence alone (the first selection, or a
 * version better by the minimum useful gain): an agent never acknowledges a regression or
 * an incomparable pair, that stays a person's decision. The gate judges on test receipts,
 * so its verdict is passed on in words without their scores.
 */
import { isDomainError } from "@/server/errors";
import { ENABLE_PROMOTE_WORDS } from "@/server/settings/agent-policy";
import { notFound, scopedCall, ToolRefusal } from "./project-scope";
import { ZPromoteVersionInput, ZPromoteVersionOutput } from "./search-shapes";
import { tool } from "./tool-spec";

const ALIAS = "selected";

const ACKNOWLEDGE_WORDS = {
  not_comparable: "it and the selected version were not scored under the same evaluation contract, so their scores do not compare",
  not_better: "it is not better than the selected version by the minimum useful gain on the trusted evaluation",
} as const;

export const promoteVersion = tool({
  name: "promote_version",
  description:
    `Promote a version of one of the project's models to "${ALIAS}", only when the owner's policy allows agents to promote (off by default; otherwise refused with how the owner enables it). ` +
    "Name the model's revision from list_models: if it moved since, the promotion is refused. The registry's gate decides: the first version, or one better than the selected version by the minimum useful gain on its trusted evaluation, is promoted; " +
    "anything that needs an acknowledgement (a regression, scores that do not compare) is refused, for a person to decide on the Models page. Answers the decision in words; test scores are never returned.",
  input: ZPromoteVersionInput,
  output: ZPromoteVersionOutput,
  writes: true,
  async run(scope, input) {
    const { api, call } = scope;
    const policy = await call(() => api.settings.agents.query());
    if (!policy.caller.mayWrite) throw new ToolRefusal("This API token is read-only: it cannot promote.");
    if (!policy.caller.mayPromote) {
      throw new ToolRefusal(`Agents may not promote model versions here: the owner's policy "agents.mayPromote" is off (the default). ${ENABLE_PROMOTE_WORDS} Until then, tell the owner which version you would promote and why.`);
    }
    const model = (await call(() => api.models.list.query({ projectId: scope.projectId }))).find((m) => m.id === input.modelId);
    if (!model) throw notFound(scope, "model", input.modelId);
    const preview = await scopedCall(scope, "model version", `${model.name} v${input.version}`, () => api.models.promotionPreview.query({ modelId: model.id, version: input.version }));
    const d = preview.decision;
    if (d.verdict === "needs_acknowledgement") {
      throw new ToolRefusal(`The gate does not promote version ${input.version} of "${model.name}" on its evidence alone: ${ACKNOWLEDGE_WORDS[d.why]}. An agent cannot acknowledge that; ask the owner to decide on the Models page.`);
    }
    if (d.verdict === "needs_evaluation" || d.verdict === "export_missing") throw new ToolRefusal(d.reason);
    let moved;
    try {
      moved = await call(() => api.models.promote.mutate({ modelId: model.id, version: input.version, reason: input.reason, expectedRevision: input.expectedRevision, alias: ALIAS }));
    } catch (err) {
      // A stale revision says so without scores; any other refusal here is the gate's, whose words carry them.
      if (isDomainError(err) && err.reason === "stale_revision") throw new ToolRefusal(`The model moved since you looked (you named revision ${input.expectedRevision}). Read list_models and decide again.`);
      if (isDomainError(err) && err.code === "CONFLICT") throw new ToolRefusal("The gate's decision changed since you looked; read list_models and decide again.");
      throw err;
    }
    const verdict = moved.decision.verdict;
    if (verdict !== "first" && verdict !== "better" && verdict !== "already_selected") throw new ToolRefusal("The gate's decision changed since you looked; read list_models and decide again.");
    const decision =
      verdict === "better"
        ? `Version ${input.version} is better than the version selected before by at least the minimum useful gain, on the trusted evaluation.`
        : moved.decision.reason;
    return { modelId: model.id, modelName: model.name, alias: ALIAS, version: input.version, moved: moved.event !== null, revision: moved.model.revision, verdict, decision };
  },
});
