/**
 * Fine-tuning experiments (issue 14): start (idempotent by client operation id, like
 * experimentsService().start, whose pieces it shares), read (FineTuneView), resume (a new
 * experiment whose train step continues from the stopped one's checkpoints) and "Try it"
 * (one prompt answered by base and adapter through a short generate job). The chain is the
 * generic runner with the LoRA pipeline (server/experiments/pipelines/lora.ts); cancel and
 * delete are experiments.cancel / experiments.delete, which treat every kind alike.
 */
import { ZLoraAnswer } from "@/contracts/recipes";
import { sha256Ref } from "@/contracts/worker/refs";
import { getDb, type Db } from "@/server/db/client";
import { absentWhenNotFound, badInput, conflict, isDomainError, notFound } from "@/server/errors";
import { intentHash } from "@/server/jobs/intent-hash";
import { isTerminal } from "@/server/jobs/job-state";
import { jobsService, PROBE_MAX_AGE_MS } from "@/server/jobs/jobs.service";
import { readOutput } from "@/server/jobs/read-output";
import { targetsService } from "@/server/targets/targets.service";
import { experimentsRepository, type ExperimentRow } from "@/server/experiments/experiments.repository";
import { createAndAdvance, defaultTargetId, requireOpenProject, startedBefore } from "@/server/experiments/experiments.service";
import { askedComputer, placedOn } from "@/server/experiments/placement";
import { baseModelName, resumedOpId } from "@/server/experiments/pipelines/lora";
import { checkBaseSource } from "./base-source";
import {
  ZResumeFineTuneInput,
  ZStartFineTuneInput,
  ZTryItInput,
  ZTryItResultInput,
  ZFineTuneSettings,
  type FineTuneView,
  type TryItResult,
} from "./finetune.schema";
import { fineTuneJobs, isResumable, toFineTuneView, trainedAdapterOf } from "./finetune.views";
import type { z } from "zod";

/** The answer of a try job is short: a minute of loading plus generating at a few tokens a second. */
const TRY_DEADLINE_S = 15 * 60;

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
    const fallback = () => defaultTargetId(db, input.projectId);
    const asked = await askedComputer(input.targetId, fallback);
    const intent = { kind: "finetune", projectId: input.projectId, datasetId: input.datasetId, evalDatasetId: input.evalDatasetId ?? null, targetId: asked, settings: input.settings };
    const existing = await startedBefore(db, input.opId, intentHash(intent));
    if (existing) return get(existing.id);
    await requireOpenProject(db, input.projectId);
    const dataset = await requireExamples(input.projectId, input.datasetId, "dataset");
    if (input.evalDatasetId) {
      if (input.evalDatasetId === input.datasetId) throw badInput("The evaluation file is the training file: choose another file, or leave it out to hold out a split.", { code: "eval_is_train" });
      await requireExamples(input.projectId, input.evalDatasetId, "evaluation dataset");
    }
    const { targetId, placement } = await placedOn(db, asked, fallback);
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
      placement: placement ? JSON.stringify(placement) : null,
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

  /**
   * A new experiment on the same data and settings whose train step continues from the
   * stopped one's checkpoints. An experiment is resumed once: the successor's opId is the
   * same for every request (a unique key, so two requests at once cannot both create one),
   * the client's opId goes into the intent, so a retried request answers its own successor
   * and any other request is refused with the successor named.
   */
  async function resume(raw: z.input<typeof ZResumeFineTuneInput>): Promise<FineTuneView> {
    const input = ZResumeFineTuneInput.parse(raw);
    const stopped = await require(input.id);
    const hash = intentHash({ kind: "finetune-resume", resumedFromId: stopped.id, opId: input.opId });
    const opId = resumedOpId(stopped.opId);
    /** The successor this request made before, or null; a refusal when another request made it. */
    const successor = async () => {
      const s = (await repo.findByOpId(opId)) ?? (await repo.resumedBy(stopped.id));
      if (!s || s.intentHash === hash) return s;
      throw conflict(`"${stopped.name}" was already resumed as "${s.name}" (${s.id}): follow that one, or resume it if it stopped too.`, { code: "already_resumed", experimentId: s.id });
    };
    const existing = await successor();
    if (existing) return get(existing.id);
    const train = (await fineTuneJobs(db, stopped)).get("train");
    if (!isResumable(stopped, train, null)) {
      throw conflict(
        stopped.status === "succeeded" || !train
          ? `"${stopped.name}" has no stopped training to resume (it is ${stopped.status}${train ? "" : " and never started training"}).`
          : `"${stopped.name}"'s training cannot be resumed: it ${train.state === "failed" && train.reason === "bad_input" ? "was refused before it trained" : `is ${stopped.status}`}.`,
        { code: "not_resumable" },
      );
    }
    await requireOpenProject(db, stopped.projectId);
    const target = await targetsService(db).requireTarget(stopped.targetId);
    let exp;
    try {
      exp = await createAndAdvance(db, {
        kind: "finetune",
        projectId: stopped.projectId,
        opId,
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
    } catch (err) {
      // Another request created the successor between the check and the insert.
      const s = await successor();
      if (!s) throw err;
      exp = s;
    }
    return get(exp.id);
  }

  /** Starts one generate job on the trained adapter; its id is the try's id. */
  async function tryIt(raw: z.input<typeof ZTryItInput>): Promise<{ tryId: string }> {
    const input = ZTryItInput.parse(raw);
    const exp = await require(input.id);
    const trained = await trainedAdapterOf(db, exp);
    if (!trained) {
      throw conflict(`"${exp.name}" has no trained adapter yet: Try it works once training has finished.`, { code: "no_adapter" });
    }
    const { device } = ZFineTuneSettings.parse(JSON.parse(exp.settings));
    const { probe } = await targetsService(db).freshProbe(exp.targetId, PROBE_MAX_AGE_MS);
    const cpus = Math.max(1, Math.floor(probe.capacity.cpus));
    const job = await jobsService(db).admitJob({
      opId: `${exp.opId}:try:${input.opId}`,
      targetId: exp.targetId,
      recipe: "llm-lora",
      job: "generate",
      input: {
        model: sha256Ref(trained.baseSha256),
        adapter: sha256Ref(trained.adapterSha256),
        prompt: input.prompt,
        maxNewTokens: input.maxNewTokens,
        device,
      },
      resources: { cpus, ramGb: 1 },
      // Ahead of queued training: a person is waiting for this answer.
      priority: 10,
      deadlineSeconds: TRY_DEADLINE_S,
    });
    return { tryId: job.id };
  }

  async function tryItResult(raw: z.input<typeof ZTryItResultInput>): Promise<TryItResult> {
    const input = ZTryItResultInput.parse(raw);
    const exp = await require(input.id);
    const job = await jobsService(db).getView(input.tryId).catch(absentWhenNotFound);
    if (!job || !job.opId.startsWith(`${exp.opId}:try:`)) throw notFound(`"${exp.name}" has no try ${input.tryId}.`);
    if (!isTerminal(job.state)) return { state: "running" };
    if (job.state !== "succeeded") return { state: "failed", message: `The answer could not be made (${job.state}${job.reason ? `, ${job.reason}` : ""}${job.detail ? `: ${job.detail}` : ""}).` };
    try {
      const answer = await readOutput(db, job, "answer.json", ZLoraAnswer);
      return { state: "succeeded", prompt: answer.prompt, adapter: answer.adapter, base: answer.base, seconds: answer.seconds };
    } catch (err) {
      if (isDomainError(err)) return { state: "failed", message: err.message };
      throw err;
    }
  }

  return { start, get, resume, tryIt, tryItResult };
}
