/** zod at the promotion policies' doors (tRPC, the CLI's JSON answers). */
import { z } from "zod";

const ZId = z.string().min(1).max(64);

export const POLICY_MODES = ["approval", "automatic"] as const;
export type PolicyMode = (typeof POLICY_MODES)[number];

export const ZSetPolicyInput = z.strictObject({
  modelId: ZId,
  /** No default: automatic promotion is only ever chosen explicitly. */
  mode: z.enum(POLICY_MODES),
  /** A deployment of the model that follows its "selected" alias: it switches when the alias moves. */
  deploymentId: ZId.nullable().default(null),
  /** How long a candidate waits for the owner before it expires (approval mode). */
  approvalHours: z.int().min(1).max(24 * 30).default(72),
  /** Automatic mode: at most this many promotions a day, at least this long apart. */
  maxPerDay: z.int().min(1).max(24).default(1),
  cooldownMinutes: z.int().min(0).max(7 * 24 * 60).default(360),
  /** The bake on the deployment after a promotion: it passes after at least this many requests and minutes (both). */
  bakeRequests: z.int().min(0).max(1_000_000).default(20),
  bakeMinutes: z.int().min(0).max(7 * 24 * 60).default(15),
  /** With fewer requests than asked this long after the bake began, the candidate is kept or reverted. */
  bakeDeadlineHours: z.int().min(1).max(24 * 30).default(24),
  bakeLowTraffic: z.enum(["keep", "revert"]).default("keep"),
  /** A hard gate beside quality: a candidate whose export is larger than this (MiB) is refused; null: no limit. */
  maxExportMib: z.number().positive().max(1_000_000).nullable().default(null),
  /** A hard gate beside quality: a candidate whose measured single-row p95 is over this (ms) is refused; null: no limit. */
  maxLatencyMs: z.number().positive().max(3_600_000).nullable().default(null),
}).refine((p) => p.bakeMinutes <= p.bakeDeadlineHours * 60, { message: "The bake's minutes must fit within its deadline (bakeDeadlineHours).", path: ["bakeMinutes"] });
export type TSetPolicyInput = z.input<typeof ZSetPolicyInput>;

/** A policy's settings besides its mode and deployment: what it shows, and what a change of mode keeps. */
export interface PolicySettings {
  approvalHours: number;
  maxPerDay: number;
  cooldownMinutes: number;
  bakeRequests: number;
  bakeMinutes: number;
  bakeDeadlineHours: number;
  bakeLowTraffic: "keep" | "revert";
  maxExportMib: number | null;
  maxLatencyMs: number | null;
}

/** The settings of a stored policy (its row) or a shown one (its view). */
export function policySettings(p: Omit<PolicySettings, "bakeLowTraffic"> & { bakeLowTraffic: string }): PolicySettings {
  return {
    approvalHours: p.approvalHours,
    maxPerDay: p.maxPerDay,
    cooldownMinutes: p.cooldownMinutes,
    bakeRequests: p.bakeRequests,
    bakeMinutes: p.bakeMinutes,
    bakeDeadlineHours: p.bakeDeadlineHours,
    bakeLowTraffic: p.bakeLowTraffic === "revert" ? "revert" : "keep",
    maxExportMib: p.maxExportMib,
    maxLatencyMs: p.maxLatencyMs,
  };
}

export const ZModelIdInput = z.strictObject({ modelId: ZId });

export const ZDecideInput = z.strictObject({
  modelId: ZId,
  candidateId: ZId,
  reason: z.string().trim().min(1).max(1000).optional(),
});
export type TDecideInput = z.infer<typeof ZDecideInput>;
