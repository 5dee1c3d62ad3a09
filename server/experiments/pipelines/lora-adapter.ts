/**
 * Where a fine-tune's trained adapter and its base model are: the worker outputs (by hash)
 * of its train and import_base jobs. One home for it: Try it generates with them, and a
 * registered version records the base it serves on (server/registry/version-serving.ts).
 */
import type { Db } from "@/server/db/client";
import { stepJobs, type StepJob } from "../chain-jobs";
import type { ExperimentRow } from "../experiments.repository";
import { LORA, loraLookupContext, type LoraStep } from "./lora";

export type FineTuneJobs = Map<LoraStep, StepJob>;

export async function fineTuneJobs(db: Db, e: ExperimentRow): Promise<FineTuneJobs> {
  return stepJobs(db, LORA.steps, loraLookupContext(e));
}

/** The trained adapter and the import_base output it adapts, once both jobs succeeded; null before. */
export async function trainedAdapterOf(db: Db, e: ExperimentRow): Promise<{ baseSha256: string; adapterSha256: string } | null> {
  const jobs = await fineTuneJobs(db, e);
  const base = jobs.get("import_base");
  const train = jobs.get("train");
  if (base?.state !== "succeeded" || !base.outputSha256 || train?.state !== "succeeded" || !train.outputSha256) return null;
  return { baseSha256: base.outputSha256, adapterSha256: train.outputSha256 };
}
