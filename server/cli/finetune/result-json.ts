/**
 * The one JSON object `trainyard finetune --json` prints, built from the server's
 * FineTuneView: the losses and the verdict come from the trusted receipt only (base and
 * adapter scored on the same evaluation examples), never from training's own loss.
 */
import type { RetrySettings, RunError } from "@/server/experiments/run-error";
import type { FineTuneView } from "@/server/finetune/finetune.schema";
import { runFailure, runFailureLines, toldFailure } from "../run-failure";
import { flagsOf } from "./args";

/**
 * A run's error as the CLI prints it: the server's RunError whose `retry` is only the
 * settings that would fit (`{maxSteps: 12}`), which the text says as flags (`--max-steps 12`).
 */
export type FineTuneRunError = Omit<RunError, "retry"> & { retry: RetrySettings | null };

export interface FineTuneJson {
  experimentId: string;
  status: string;
  /** Mean NLL per answer token of the base model on the evaluation examples (the receipt). */
  baseLoss: number | null;
  /** The same for the adapter, on the same examples and tokens. */
  adapterLoss: number | null;
  /** The receipt's verdict: adapterLoss below baseLoss. Null until evaluated. */
  betterThanBase: boolean | null;
  metrics: {
    basePerplexity: number | null;
    adapterPerplexity: number | null;
    evalExamples: number | null;
    answerTokens: number | null;
    trainSteps: number | null;
    finalTrainLoss: number | null;
    /** Only with --answer-pattern: the share of generated answers equal to the reference's. */
    exactMatch: { pattern: string; examples: number; base: number; adapter: number } | null;
  };
  exportPath: string | null;
  /** SHA-256 of the export the server verified; the saved file was checked against it. */
  exportSha256: string | null;
  /** The command's wall time (`experiments show`: the experiment's, null while it runs). */
  seconds: number | null;
  /** Training throughput: the finished run's, else the last live reading. */
  tokensPerSecond: number | null;
  /** Training stopped with a checkpoint and can continue (`--resume`, Resume) instead of starting over. */
  resumable: boolean;
  /** The experiment this attempt continues, and the attempt that continued this one. */
  resumedFromId: string | null;
  resumedById: string | null;
  /** Why the run did not succeed and what to do (code, message, fix, step, retry); null while it runs or once it succeeded. */
  error: FineTuneRunError | null;
}

export function fineTuneJson(view: FineTuneView, extra: { exportPath: string | null; seconds: number | null }): FineTuneJson {
  const receipt = view.receipt;
  const final = view.training?.final ?? null;
  return {
    experimentId: view.experiment.id,
    status: view.experiment.status,
    baseLoss: receipt?.base.meanNll ?? null,
    adapterLoss: receipt?.adapter.meanNll ?? null,
    betterThanBase: receipt?.betterThanBase ?? null,
    metrics: {
      basePerplexity: receipt?.base.perplexity ?? null,
      adapterPerplexity: receipt?.adapter.perplexity ?? null,
      evalExamples: receipt?.examples ?? null,
      answerTokens: receipt?.adapter.tokens ?? null,
      trainSteps: final?.steps ?? view.training?.step ?? null,
      finalTrainLoss: final?.finalTrainLoss ?? null,
      exactMatch: receipt?.exactMatch ?? null,
    },
    exportPath: extra.exportPath,
    exportSha256: view.export?.sha256 ?? null,
    seconds: extra.seconds,
    tokensPerSecond: final?.tokensPerSecond ?? view.training?.tokensPerSecond ?? null,
    resumable: view.resumable,
    resumedFromId: view.resumedFrom?.id ?? null,
    resumedById: view.resumedBy?.id ?? null,
    error: cliError(runFailure(view.experiment.status, view.error, view.experiment.reason)),
  };
}

function cliError(e: RunError | null): FineTuneRunError | null {
  if (!e) return null;
  const { retry, ...rest } = e;
  return { ...rest, retry: retry?.settings ?? null };
}

/** The text summary for people: the verdict with rounded losses, exact match, then the export's path last. */
export function fineTuneSummary(result: FineTuneJson, note: string | null): string[] {
  // A failure's words are in its own lines below, the note would say them twice; a cancel is told by its note.
  const told = toldFailure(result.status, result.error);
  const shown = told ? null : note;
  const lines = [`Experiment ${result.experimentId}: ${result.status}${result.seconds === null ? "" : ` in ${result.seconds} s`}${shown ? ` (${shown})` : ""}`];
  if (result.baseLoss !== null && result.adapterLoss !== null) {
    const verdict = result.betterThanBase ? "better than the base model" : "not better than the base model";
    lines.push(`mean NLL per answer token ${result.adapterLoss.toFixed(3)} (base ${result.baseLoss.toFixed(3)}) on ${result.metrics.evalExamples} held-out examples: ${verdict}`);
  }
  const em = result.metrics.exactMatch;
  if (em) lines.push(`exact match of the answer on ${em.examples} prompts: ${(em.adapter * 100).toFixed(1)} % (base ${(em.base * 100).toFixed(1)} %)`);
  if (told) lines.push(...runFailureLines(told));
  if (told?.retry) lines.push(`To fit, run \`trainyard finetune\` again with the same flags and ${flagsOf(told.retry)}.`);
  if (result.resumable) lines.push(`Training stopped with a checkpoint: \`trainyard finetune --resume ${result.experimentId}\` (or Resume on the experiment's page) continues it from the saved step.`);
  if (result.resumedById) lines.push(`Resumed as experiment ${result.resumedById}.`);
  // Last, so that `| tail -1` gives the file.
  if (result.exportPath) lines.push(`Export: ${result.exportPath}`);
  return lines;
}
