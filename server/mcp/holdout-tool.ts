/**
 * compare_on_holdout: which of two versions of a model the project's reserved holdout
 * favours (server/holdouts/verdict.ts), never a value: holdout scores do not reach agents,
 * so an agent cannot tune against the holdout. It runs the evaluator's bounded jobs, so a
 * read-only token is not offered it.
 */
import { z } from "zod";
import { notFound, scopedCall } from "./project-scope";
import { tool } from "./tool-spec";

const ZId = z.string().min(1).max(64);

export const ZCompareOnHoldoutToolInput = z.strictObject({
  modelId: ZId.describe("a model of this project (list_models)"),
  versions: z.tuple([z.int().positive(), z.int().positive()]).describe("two version numbers: the verdict says whether the second is better than the first"),
  holdoutId: ZId.optional().describe("a reserved holdout of this project (default: the newest)"),
});

export const ZCompareOnHoldoutToolOutput = z.strictObject({
  modelId: ZId,
  holdoutName: z.string(),
  versions: z.tuple([z.int(), z.int()]),
  /** Holdout rows scored (those neither version learnt from) and those left out. */
  rows: z.int(),
  rowsLeftOut: z.int(),
  verdict: z.enum(["second_better", "first_better", "no_clear_difference"]),
  words: z.string(),
});

export const compareOnHoldout = tool({
  name: "compare_on_holdout",
  description:
    "Ask whether one version of a model is better than another on the project's reserved holdout (data no training, search or agent ever sees), scored by the trusted evaluator on the rows neither version learnt from. " +
    "Answers a verdict (second_better, first_better or no_clear_difference, from a 95% paired-bootstrap interval) and row counts; holdout scores are never returned. Takes a minute or so: it runs evaluation jobs.",
  input: ZCompareOnHoldoutToolInput,
  output: ZCompareOnHoldoutToolOutput,
  writes: true,
  async run(scope, input) {
    const { api, call } = scope;
    const model = (await call(() => api.models.list.query({ projectId: scope.projectId }))).find((m) => m.id === input.modelId);
    if (!model) throw notFound(scope, "model", input.modelId);
    const v = await scopedCall(scope, "holdout", input.holdoutId ?? "(newest)", () =>
      api.holdouts.verdict.mutate({ modelId: model.id, versions: [...input.versions], ...(input.holdoutId ? { holdoutId: input.holdoutId } : {}) }),
    );
    return { modelId: model.id, holdoutName: v.holdout.name, versions: v.versions, rows: v.rows, rowsLeftOut: v.rowsLeftOut, verdict: v.verdict, words: v.words };
  },
});
