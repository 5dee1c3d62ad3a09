/**
 * Pins the split an experiment trained on: once its split step's job has succeeded, the
 * split is recorded with the datasets service (one SplitContract per snapshot and split
 * settings, whoever made it) and its id written to Experiment.splitContractId. Once per
 * experiment: a pinned experiment reads nothing more.
 */
import { ZSplitContract } from "@/contracts/recipes";
import { datasetsService } from "@/server/datasets";
import type { Db } from "@/server/db/client";
import { readOutput } from "@/server/jobs/read-output";
import type { StepJob } from "./chain-jobs";
import { experimentsRepository } from "./experiments.repository";

export async function pinSplit(db: Db, experimentId: string, job: StepJob | undefined): Promise<void> {
  if (!job || job.state !== "succeeded" || !job.outputSha256) return;
  const repo = experimentsRepository(db);
  const exp = await repo.find(experimentId);
  if (!exp || exp.splitContractId) return;
  const contract = await readOutput(db, job, "split.json", ZSplitContract);
  const id = await datasetsService(db).recordSplit({ settings: JSON.parse(job.input), jobId: job.id, outputSha256: job.outputSha256, contract });
  await repo.setSplitContract(experimentId, id);
}
