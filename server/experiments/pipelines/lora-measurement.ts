/**
 * Which earlier preflight of this computer a fine-tune's preflight may take its speed and
 * memory from (issue 28): one that measured the same imported model (the same import
 * output), device, LoRA shape and batch size, with as many CPUs, in the last day, that
 * succeeded (its outputs are kept and final), and that measured them itself (a reused figure is never passed on, so every figure is at most a day
 * old). The recipe still checks that its smoke step was as long as the new data needs. With
 * one, the preflight loads no model: a run that will not fit its budget is refused in
 * seconds, and one that fits starts sooner.
 */
import type { Db } from "@/server/db/client";
import { readOutput } from "@/server/jobs/read-output";
import { jobsRepository } from "@/server/jobs/jobs.repository";
import { ZLoraPreflight, ZLoraPreflightInput, type ReusedMeasurement } from "@/contracts/recipes/llm-lora";
import type { InputOf } from "@/contracts/recipes";
import { z } from "zod";

export const MEASUREMENT_HOURS = 24;
// The recipe input fields that must be equal for a smoke step to stand for another run's.
const SAME = ["model", "device", "rank", "alpha", "dropout", "targetModules", "batchSize", "gradientAccumulation", "maxLength"] as const;
const ZCpus = z.object({ cpus: z.number() });

type PreflightInput = InputOf<"llm-lora", "preflight">;
type Shape = z.output<typeof ZLoraPreflightInput>;

// Both sides with the recipe's defaults applied: a field left out and its default are the same run.
const sameShape = (a: Shape, b: Shape) => SAME.every((k) => JSON.stringify(a[k] ?? null) === JSON.stringify(b[k] ?? null));

export async function reusableMeasurement(db: Db, targetId: string, cpus: number, wantedInput: PreflightInput, now = new Date()): Promise<ReusedMeasurement | null> {
  const wanted = ZLoraPreflightInput.parse(wantedInput);
  const candidates = await jobsRepository(db).succeededOf({
    targetId,
    recipe: "llm-lora",
    jobName: "preflight",
    since: new Date(now.getTime() - MEASUREMENT_HOURS * 3600_000),
    limit: 10,
  });
  for (const job of candidates) {
    const input = ZLoraPreflightInput.safeParse(JSON.parse(job.input));
    const resources = ZCpus.safeParse(JSON.parse(job.resources));
    if (!input.success || !resources.success || resources.data.cpus !== cpus || !sameShape(input.data, wanted)) continue;
    // A report that cannot be read (an older shape, a computer that does not answer) only
    // means this run measures again, as every preflight did before.
    const report = await readOutput(db, job, "preflight.json", ZLoraPreflight).catch(() => null);
    if (!report || !("smokeStep" in report) || report.reusedFrom || report.time.setupSeconds === undefined) continue;
    return {
      jobId: job.workerJobId!,
      measuredAt: (job.startedAt ?? job.createdAt).toISOString(),
      cpus,
      smokeStep: report.smokeStep,
      memory: report.memory.estimate,
      lengthUsed: report.memory.lengthUsed,
      setupSeconds: report.time.setupSeconds,
    };
  }
  return null;
}
