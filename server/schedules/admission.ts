/** What the admission steps of a run share (admit-run.ts drives them): its context, its writes, its budget. */
import { createHash } from "node:crypto";
import { ZScheduleSpec, type ScheduleSource, type ScheduleSpec } from "@/contracts/schedules/schedules";
import type { Db } from "@/server/db/client";
import { schedulesRepository, type RunRow, type ScheduleRow } from "./schedules.repository";

export type Step = "wait" | "next" | "done";

export interface AdmissionCtx {
  db: Db;
  s: ScheduleRow;
  run: RunRow;
  source: ScheduleSource;
  spec: ScheduleSpec;
}

export const QUICK_MINUTES = 5;
export const IMPROVE_MINUTES = 10;
export const FINETUNE_MINUTES = 30;
export const budgetMinutesOf = (spec: ScheduleSpec): number =>
  spec.maxMinutes ?? (spec.mode === "quick" ? QUICK_MINUTES : spec.mode === "improve" ? IMPROVE_MINUTES : FINETUNE_MINUTES);
export const specHashOf = (spec: ScheduleSpec): string => createHash("sha256").update(JSON.stringify(ZScheduleSpec.parse(spec))).digest("hex");

export async function updateRun(ctx: AdmissionCtx, data: Parameters<ReturnType<typeof schedulesRepository>["updateRun"]>[1]): Promise<void> {
  ctx.run = await schedulesRepository(ctx.db).updateRun(ctx.run.id, data);
}

/** A final decision about this run (not started: no-op or refused). */
export async function decide(ctx: { db: Db; run: RunRow }, outcome: "no_op" | "refused", reason: string): Promise<void> {
  await schedulesRepository(ctx.db).updateRun(ctx.run.id, { outcome, reason, step: null });
}
