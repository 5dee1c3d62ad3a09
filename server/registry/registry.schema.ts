/**
 * The model registry's inputs (strict, checked at the API edge) and its bounds. The views
 * it answers are in registry-views.ts; the gate's decision in gate.ts.
 */
import { DEFAULT_REASONS } from "@/contracts/registry/default-reasons";
import { z } from "zod";

export const LIMITS = {
  modelsPerProject: 32,
  versionsPerModel: 200,
  /** Selection events a view shows (all are kept). */
  eventsShown: 200,
  nameMax: 100,
  reasonMax: 2000,
} as const;

/** The alias that says which version is in use. */
export const SELECTED = "selected";

const id = z.string().min(1).max(64);
const reason = z.string().trim().min(1, "Say why (a reason is recorded with the event).").max(LIMITS.reasonMax);
/** Promote and rollback: optional, recorded as DEFAULT_REASONS when empty. Removing versions still asks why. */
const optionalReason = (fallback: string) =>
  z
    .string()
    .trim()
    .max(LIMITS.reasonMax)
    .optional()
    .transform((s) => s || fallback);
/** A model name as a person types it; uniqueness (case-insensitive) is checked per project. */
export const ZModelName = z
  .string()
  .trim()
  .min(1, "A model name cannot be empty.")
  .max(LIMITS.nameMax, `A model name is at most ${LIMITS.nameMax} characters.`);
export const ZAliasName = z
  .string()
  .trim()
  .regex(/^[a-z][a-z0-9_-]{0,39}$/, "An alias is lower-case letters, digits, - or _ (at most 40), starting with a letter.");

export const nameKey = (name: string) => name.trim().toLowerCase();

export const ZListModelsInput = z.strictObject({ projectId: id });
export const ZModelIdInput = z.strictObject({ modelId: id });

/**
 * Registers an experiment as a version of an existing model (`modelId`) or of a new one
 * (`newModelName`). The experiment is the operation id: registering it again answers the
 * version it already is.
 */
export const ZRegisterInput = z
  .strictObject({ experimentId: id, modelId: id.optional(), newModelName: ZModelName.optional() })
  .refine((v) => (v.modelId === undefined) !== (v.newModelName === undefined), {
    message: "Name either an existing model (modelId) or a new one (newModelName), not both.",
    path: ["modelId"],
  });
export type TRegisterInput = z.infer<typeof ZRegisterInput>;

export const ZPromoteInput = z.strictObject({
  modelId: id,
  /** The version number (1, 2, …) within the model. */
  version: z.int().positive(),
  alias: ZAliasName.default(SELECTED),
  reason: optionalReason(DEFAULT_REASONS.promote),
  /** Needed when the gate finds the pair not comparable, or the candidate not better. */
  acceptRegression: z.boolean().default(false),
  /** The model revision the caller decided on; a stale one is a CONFLICT. */
  expectedRevision: z.int().positive(),
});
export type TPromoteInput = z.input<typeof ZPromoteInput>;

export const ZRollbackInput = z.strictObject({
  modelId: id,
  /** An earlier selected version; default: the one selected before the current one. */
  to: z.int().positive().optional(),
  reason: optionalReason(DEFAULT_REASONS.rollback),
  expectedRevision: z.int().positive().optional(),
});
export type TRollbackInput = z.infer<typeof ZRollbackInput>;

export const ZCompareInput = z.strictObject({ modelId: id, a: z.int().positive(), b: z.int().positive() });
export const ZHistoryInput = z.strictObject({ modelId: id, limit: z.int().positive().max(LIMITS.eventsShown).default(LIMITS.eventsShown) });
export const ZRetentionInput = z.strictObject({ projectId: id });
export const ZRemoveVersionInput = z.strictObject({ modelId: id, version: z.int().positive(), reason });
export type TRemoveVersionInput = z.infer<typeof ZRemoveVersionInput>;
/** The versions a person ticked in the retention sheet (by id, as the preview lists them). */
export const ZRemoveVersionsInput = z.strictObject({
  projectId: id,
  versionIds: z
    .array(id)
    .min(1, "Choose at least one version to remove.")
    .max(LIMITS.modelsPerProject * LIMITS.versionsPerModel)
    .refine((ids) => new Set(ids).size === ids.length, "A version is named twice."),
  reason,
});
export type TRemoveVersionsInput = z.infer<typeof ZRemoveVersionsInput>;

/** Who moved an alias: the owner, an API token (by name), a policy, or open loopback. */
export const ZActor = z.strictObject({ kind: z.enum(["owner", "token", "policy", "open"]), name: z.string() });
export type Actor = z.infer<typeof ZActor>;
