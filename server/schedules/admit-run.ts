/**
 * Admitting one run of a schedule, one step at a time, each step decided from the database
 * so that the reconciler resumes it after a restart: observing and importing (the source's
 * data, admission-data.ts), profiling, checking and starting (admission-start.ts: an
 * experiment, a search or a fine-tune whose opId is the run's id, so a restart in between
 * starts the same one again, never a second). A step that must wait returns; the data's
 * events and the sweep bring it back. A refusal the domain words (bad input, not found) is
 * the run's final decision; a computer that does not answer is tried again.
 */
import { ZScheduleSource, ZScheduleSpec, type AdmissionStep } from "@/contracts/schedules/schedules";
import type { Db } from "@/server/db/client";
import { isDomainError } from "@/server/errors";
import { isUnreachable } from "@/server/targets/unreachable";
import { decide, updateRun, type AdmissionCtx, type Step } from "./admission";
import { importing, observing } from "./admission-data";
import { checking, profiling, starting } from "./admission-start";
import type { RunRow, ScheduleRow } from "./schedules.repository";

const STEPS: Record<AdmissionStep, (ctx: AdmissionCtx) => Promise<Step>> = { observing, importing, profiling, checking, starting };

/** Advances an admitting run as far as it can go now; true when it reached a decision. */
export async function advanceAdmission(db: Db, s: ScheduleRow, run: RunRow): Promise<boolean> {
  const ctx: AdmissionCtx = { db, s, run, source: ZScheduleSource.parse(JSON.parse(s.source)), spec: ZScheduleSpec.parse(JSON.parse(s.spec)) };
  for (let i = 0; i < 6; i++) {
    let step: Step;
    try {
      step = await STEPS[ctx.run.step as AdmissionStep](ctx);
    } catch (err) {
      if (isUnreachable(err)) {
        await updateRun(ctx, { reason: `The computer did not answer (${(err as Error).message}); trying again.` });
        return false;
      }
      if (isDomainError(err) && (err.code === "BAD_INPUT" || err.code === "NOT_FOUND" || err.code === "CONFLICT")) {
        await decide(ctx, "refused", err.message);
        return true;
      }
      throw err;
    }
    if (step !== "next") return step === "done";
  }
  return false;
}
