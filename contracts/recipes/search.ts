/**
 * The `search` recipe (training/recipes/search, Optuna): suggest the next trial's settings
 * from a declared search space and the trials so far. Stateless: Optuna runs in memory per
 * call and Trainyard's database is the ledger, so the same space, history and seed always
 * give the same suggestion (the job can be rerun after a crash with the same answer).
 */
import { z } from "zod";
import { ZDirection } from "./common";

const ZParamName = z.string().regex(/^[A-Za-z][\w.]{0,99}$/, "a parameter name is letters, digits, _ and .");
export const ZParamValue = z.union([z.string().max(200), z.number(), z.boolean()]);
export type ParamValue = z.infer<typeof ZParamValue>;

/**
 * A parameter applies only when an earlier one holds one of the listed values (a model
 * family's own hyperparameters apply only when that family is chosen).
 */
const ZWhen = z.strictObject({ param: ZParamName, in: z.array(ZParamValue).min(1).max(100) });

export const ZSpaceParam = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("float"), name: ZParamName, low: z.number(), high: z.number(), log: z.boolean().default(false), when: ZWhen.optional() }),
  z.strictObject({ kind: z.literal("int"), name: ZParamName, low: z.int(), high: z.int(), log: z.boolean().default(false), when: ZWhen.optional() }),
  z.strictObject({ kind: z.literal("categorical"), name: ZParamName, choices: z.array(ZParamValue).min(1).max(100), when: ZWhen.optional() }),
]);
export type SpaceParam = z.infer<typeof ZSpaceParam>;

/** Parameters in order: a `when` names an earlier parameter. */
export const ZSearchSpace = z
  .strictObject({ params: z.array(ZSpaceParam).min(1).max(100) })
  .superRefine((s, ctx) => {
    const seen = new Set<string>();
    s.params.forEach((p, i) => {
      if (seen.has(p.name)) ctx.addIssue({ code: "custom", path: ["params", i, "name"], message: `${p.name} is declared twice.` });
      if (p.when && !seen.has(p.when.param)) ctx.addIssue({ code: "custom", path: ["params", i, "when"], message: `${p.name} depends on ${p.when.param}, which is not declared before it.` });
      if (p.kind !== "categorical" && !(p.low < p.high)) ctx.addIssue({ code: "custom", path: ["params", i], message: `${p.name}: low must be below high.` });
      if (p.kind !== "categorical" && p.log && p.low <= 0) ctx.addIssue({ code: "custom", path: ["params", i], message: `${p.name}: a log range starts above 0.` });
      seen.add(p.name);
    });
  });
export type SearchSpace = z.infer<typeof ZSearchSpace>;

/** One trial's settings: a value for every parameter whose `when` holds, and no other. */
export const ZTrialParams = z.record(ZParamName, ZParamValue);
export type TrialParams = z.infer<typeof ZTrialParams>;

export const ZSuggestInput = z.strictObject({
  space: ZSearchSpace,
  /** The objective's direction (the validation metric's). */
  direction: ZDirection,
  /** The sampler's seed for this one call: the caller varies it per trial (search seed + trial number). */
  seed: z.int().min(0).max(2 ** 31 - 1),
  /** Random suggestions before TPE models the history. */
  startupTrials: z.int().min(0).max(100).default(3),
  /**
   * Every earlier trial of the search, in order: its settings and validation score (null when
   * it produced none). `running`: still training beside the one asked for (no value yet).
   */
  history: z
    .array(
      z.strictObject({
        params: ZTrialParams,
        value: z.number().nullable(),
        state: z.enum(["complete", "failed", "running"]),
      }),
    )
    .max(1000),
});
export type SuggestJobInput = z.input<typeof ZSuggestInput>;

/** suggestion.json: the next trial's settings. */
export const ZSuggestion = z.strictObject({
  params: ZTrialParams,
  sampler: z.enum(["random", "tpe"]),
  seed: z.int(),
  historyTrials: z.int().nonnegative(),
  optunaVersion: z.string(),
});
export type Suggestion = z.infer<typeof ZSuggestion>;

export const search = {
  suggest: { input: ZSuggestInput, outputs: { "suggestion.json": ZSuggestion } },
} as const;
