/**
 * Fine-tuning experiments (issue 14): start (idempotent by client operation id, like
 * experimentsService().start, whose pieces it shares), read (FineTuneView), resume (a new
 * experiment whose train step continues from the stopped one's checkpoints) and "Try it"
 * (one prompt answered by base and adapter through a short generate job). The chain is the
 * generic runner with the LoRA pipeline (server/experiments/pipelines/lora.ts); cancel and
 * delete are experiments.cancel / experiments.delete, which treat every kind alike.
 */
import { getDb, type Db } from "@/server/db/client";
import { badInput, conflict, notFound, unavailable } from "@/server/errors";
import { intentHash } from "@/server/jobs/intent-hash";
import { targetsService } from "@/server/targets/targets.service";
import { experimentsRepository, type ExperimentRow } from "@/server/experiments/experiments.repository";
import { createAndAdvance, defaultTargetId, requireOpenProject, startedBefore } from "@/server/experiments/experiments.service";
import { baseModelName } from "@/server/experiments/pipelines/lora";
import { checkBaseSource } from "./base-source";
import {
  ZResumeFineTuneInput,
  ZStartFineTuneInput,
  ZTryItInput,
  ZTryItResultInput,
  type FineTuneView,
  type TryItResult,
} from "./finetune.schema";
import { fineTuneJobs, isResumable, toFineTuneView } from "./finetune.views";
import type { z } from "zod";

export function fineTuneService(db: Db = getDb()) {
  const repo = experimentsRepository(db);

  async function require(id: string): Promise<ExperimentRow> {
    const exp = await repo.find(id);
    if (!exp || exp.kind !== "finetune") throw notFound(`There is no fine-tuning experiment with id ${id}. It may have been deleted.`);
    return exp;
  }

  /** A JSONL examples dataset of the project, ready to train on. */
  async function requireExamples(projectId: string, datasetId: string, role: string) {
    const dataset = await repo.dataset(datasetId);
    if (!dataset || dataset.projectId !== projectId) throw notFound(`This project has no dataset ${datasetId}.`);
    if (dataset.kind !== "examples") {
      throw badInput(`The ${role} "${dataset.name}" is a table, not a JSONL file of examples: fine-tuning reads one example a line (prompt/completion, chat messages, or alpaca).`, { code: "not_examples" });
    }
    if (dataset.status === "failed") throw badInput(`The ${role} "${dataset.name}" could not be read${dataset.error ? `: ${dataset.error}` : ""}; choose another file.`);
    return dataset;
  }

  async function start(raw: z.input<typeof ZStartFineTuneInput>): Promise<FineTuneView> {
    const input = ZStartFineTuneInput.parse(raw);
    const targetId = input.targetId ?? (await defaultTargetId(db, input.projectId));
    const intent = { kind: "finetune", projectId: input.projectId, datasetId: input.datasetId, evalDatasetId: input.evalDatasetId ?? null, targetId, settings: input.settings };
    const existing = await startedBefore(db, input.opId, intentHash(intent));
    if (existing) return get(existing.id);
    await requireOpenProject(db, input.projectId);
    const dataset = await requireExamples(input.projectId, input.datasetId, "dataset");
    if (input.evalDatasetId) {
      if (input.evalDatasetId === input.datasetId) throw badInput("The evaluation file is the training file: choose another file, or leave it out to hold out a split.", { code: "eval_is_train" });
      await requireExamples(input.projectId, input.evalDatasetId, "evaluation dataset");
    }
    const target = await targetsService(db).requireTarget(targetId);
    if (!target.enabled) throw badInput(`${target.name} is disabled.`);
    await checkBaseSource(db, target, input.settings.base);
    const count = await repo.countInProject(input.projectId);
    const exp = await createAndAdvance(db, {
      kind: "finetune",
      projectId: input.projectId,
      opId: input.opId,
      intentHash: intentHash(intent),
      name: input.name || `Fine-tune #${count + 1} — ${baseModelName(input.settings.base)}`,
      targetId,
      targetRevision: target.revision,
      workerId: target.workerId,
      datasetId: dataset.id,
      evalDatasetId: input.evalDatasetId ?? null,
      snapshotSha256: dataset.snapshotSha256,
      settings: JSON.stringify(input.settings),
      budgetSeconds: Math.round(input.settings.maxMinutes * 60),
    });
    return get(exp.id);
  }

  async function get(id: string): Promise<FineTuneView> {
    return toFineTuneView(db, await require(id));
  }

  /** A new experiment on the same data and settings whose train step continues from the stopped one's checkpoints. */
  async function resume(raw: z.input<typeof ZResumeFineTuneInput>): Promise<FineTuneView> {
    const input = ZResumeFineTuneInput.parse(raw);
    const stopped = await require(input.id);
    const hash = intentHash({ kind: "finetune-resume", resumedFromId: stopped.id });
    const existing = await startedBefore(db, input.opId, hash);
    if (existing) return get(existing.id);
    const train = (await fineTuneJobs(db, stopped)).get("train");
    if (!isResumable(stopped, train)) {
      throw conflict(
        stopped.status === "succeeded" || !train
          ? `"${stopped.name}" has no stopped training to resume (it is ${stopped.status}${train ? "" : " and never started training"}).`
          : `"${stopped.name}"'s training cannot be resumed: it ${train.state === "failed" && train.reason === "bad_input" ? "was refused before it trained" : `is ${stopped.status}`}.`,
        { code: "not_resumable" },
      );
    }
    await requireOpenProject(db, stopped.projectId);
    const target = await targetsService(db).requireTarget(stopped.targetId);
    const exp = await createAndAdvance(db, {
      kind: "finetune",
      projectId: stopped.projectId,
      opId: input.opId,
      intentHash: hash,
      name: `${stopped.name.replace(/ \(resumed\)$/, "")} (resumed)`.slice(0, 200),
      targetId: stopped.targetId,
      targetRevision: target.revision,
      workerId: target.workerId,
      datasetId: stopped.datasetId,
      evalDatasetId: stopped.evalDatasetId,
      resumedFromId: stopped.id,
      snapshotSha256: stopped.snapshotSha256,
      settings: stopped.settings,
      budgetSeconds: stopped.budgetSeconds,
    });
    return get(exp.id);
  }

  // "Try it" answers through the recipe's generate job, which its contract does not have yet.
  const notYet = () =>
    unavailable("Try it is not available yet: the llm-lora recipe of this version has no generate job.");

  async function tryIt(raw: z.input<typeof ZTryItInput>): Promise<{ tryId: string }> {
    await require(ZTryItInput.parse(raw).id);
    throw notYet();
  }

  async function tryItResult(raw: z.input<typeof ZTryItResultInput>): Promise<TryItResult> {
    await require(ZTryItResultInput.parse(raw).id);
    throw notYet();
  }

  return { start, get, resume, tryIt, tryItResult };
}
