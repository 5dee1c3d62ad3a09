/**
 * The fine-tuning page in words (pure; unit-tested): the verdict read only from the
 * trusted receipt, the training progress (step of planned, tokens/s, time left), the
 * preflight's memory and time estimates, and server errors keyed by the field they name.
 */
import type { LoraPreflight, LoraReceipt } from "@/contracts/recipes/llm-lora";
import { formatBytes } from "@/contracts/vocabulary";
import { formatDuration } from "@/components/experiment/format";
import type { FineTuneView, SlurmStops } from "@/server/finetune/finetune.schema";

const nll = (v: number) => v.toFixed(3);
const ppl = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(2));

export interface FineTuneVerdict {
  better: boolean;
  headline: string;
  detail: string;
}

/** "Better than base" comes from the receipt's own judgement, never recomputed here. */
export function fineTuneVerdict(receipt: LoraReceipt | null): FineTuneVerdict | null {
  if (!receipt) return null;
  const { base, adapter } = receipt;
  const headline = receipt.betterThanBase
    ? `The adapter is better than the base model: ${nll(adapter.meanNll)} vs ${nll(base.meanNll)} mean loss per answer token.`
    : `The adapter is not better than the base model: ${nll(adapter.meanNll)} vs ${nll(base.meanNll)} mean loss per answer token.`;
  const detail =
    `Both scored on the same ${receipt.examples} held-out examples (${adapter.tokens} answer tokens), lower is better; ` +
    `perplexity ${ppl(adapter.perplexity)} vs ${ppl(base.perplexity)}.`;
  return { better: receipt.betterThanBase, headline, detail };
}

export interface TrainingProgress {
  /** 0–100 of the planned steps; null before the plan is known. */
  percent: number | null;
  words: string;
}

const times = (n: number) => (n > 1 ? ` ${n} times` : "");

/** "stopped at Slurm's time limit", "preempted by Slurm 2 times", both joined; "" when neither. */
function slurmStopWords(stops: SlurmStops): string {
  const words = [];
  if (stops.time_limit > 0) words.push(`stopped at Slurm's time limit${times(stops.time_limit)}`);
  if (stops.preempted > 0) words.push(`preempted by Slurm${times(stops.preempted)}`);
  return words.join(" and ");
}

export function trainingProgress(training: FineTuneView["training"]): TrainingProgress {
  if (!training) return { percent: null, words: "Training has not started yet." };
  const planned = training.final?.plannedSteps ?? training.plannedSteps;
  const step = training.final?.steps ?? training.step;
  const parts = [planned ? `step ${step} of ${planned}` : `step ${step}`];
  const tps = training.final?.tokensPerSecond ?? training.tokensPerSecond;
  if (tps !== null) parts.push(`${Math.round(tps)} tokens/s`);
  if (!training.final && training.etaSeconds !== null) parts.push(`about ${formatDuration(training.etaSeconds)} left`);
  const stopped = slurmStopWords(training.slurmStops);
  if (training.resumedFromStep !== null) parts.push(`${stopped ? `${stopped}, ` : ""}resumed at step ${training.resumedFromStep}`);
  else if (stopped) parts.push(`${stopped}; started again from the beginning`);
  if (training.final?.stoppedBy === "budget") parts.push("stopped by the time budget (the adapter is the one at that step)");
  const percent = planned ? Math.min(100, Math.round((step / planned) * 100)) : null;
  return { percent, words: parts.join(" · ") };
}

export interface PreflightWords {
  device: string;
  memory: string;
  fits: boolean;
  time: string | null;
  /** Smaller settings that would fit, when the estimate does not. */
  fitting: string | null;
  /** The steps fitted to the budget, when the ones asked for did not fit (fitToBudget). */
  fitted: string | null;
}

export function preflightWords(p: LoraPreflight): PreflightWords {
  const d = p.device;
  const device = `${d.device}${d.name ? ` (${d.name})` : ""}: ${d.ok ? "works" : "does not work"} — a test allocation and one training step took ${d.seconds.toFixed(1)} s${d.bf16 ? "; bf16 supported" : ""}.`;
  const m = p.memory;
  const e = m.estimate;
  const activations = `activations ${formatBytes(e.activations)} at ${m.lengthUsed} tokens${e.measuredPeak === undefined ? "" : ", measured on the longest batch"}`;
  const memory = `About ${formatBytes(e.total)} needed (runtime ${formatBytes(e.runtime)}, weights ${formatBytes(e.weights)}, LoRA ${formatBytes(e.lora)}, optimizer ${formatBytes(e.optimizer)}, ${activations}) of ${formatBytes(m.availableBytes)} available.`;
  if (!m.fits) {
    const fitting = m.fitting.length
      ? `Settings that would fit: ${m.fitting.map((f) => `batch size ${f.batchSize} with max length ${f.maxLength}`).join("; ")}.`
      : "No smaller batch size or max length fits this device.";
    return { device, memory, fits: false, time: null, fitting, fitted: null };
  }
  if (!("time" in p)) return { device, memory, fits: true, time: null, fitting: null, fitted: null };
  const t = p.time;
  const time = `${t.note} (${t.plannedSteps} steps, ${t.plannedTokens.toLocaleString("en-US")} tokens, about ${formatDuration(t.estimatedSeconds)}; measured ${Math.round(p.smokeStep.tokensPerSecond)} tokens/s on the longest examples${p.reusedFrom ? ` by an earlier preflight on this computer (${new Date(p.reusedFrom.measuredAt).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" })}): the model was not loaded again` : ""}).`;
  const fitted =
    t.fittedFrom === undefined
      ? null
      : `Fitted to the budget: ${t.fittedFrom.toLocaleString("en-US")} steps would not fit the minutes, so the run trains ${t.plannedSteps.toLocaleString("en-US")}.`;
  return { device, memory, fits: true, time, fitting: null, fitted };
}

/** The field a refusal of finetune.start concerns, by its code (server/finetune: base-source.ts, finetune.service.ts). */
const FIELD_OF_CODE: Record<string, string> = {
  path_not_allowed: "settings.base.path",
  not_found: "settings.base.path",
  not_a_model: "settings.base.path",
  base_not_uploaded: "settings.base.path",
  eval_is_train: "evalDatasetId",
};

/** Zod issues (their path joined with dots) and a domain error's `details.field` (or its known code), by field. */
export function fieldErrors(err: unknown): Record<string, string> {
  const data = (err as { data?: { zodIssues?: { path: (string | number)[]; message: string }[] | null; details?: { field?: unknown; code?: unknown } | null } } | null)?.data;
  const out: Record<string, string> = {};
  for (const i of data?.zodIssues ?? []) {
    const key = i.path.join(".");
    if (key && !(key in out)) out[key] = i.message;
  }
  const d = data?.details;
  const field = typeof d?.field === "string" ? d.field : typeof d?.code === "string" ? FIELD_OF_CODE[d.code] : undefined;
  if (field && !(field in out)) out[field] = (err as { message?: string }).message ?? "This value was refused.";
  return out;
}

/**
 * The allowed root `p` lies strictly below, else null: the server's rule (the root itself
 * and paths with '..' are refused), as a prefix check on folder boundaries.
 */
export function insideRoots(p: string, roots: readonly string[]): string | null {
  const trimmed = p.trim();
  if (trimmed.split("/").includes("..")) return null;
  for (const r of roots) {
    const root = r.endsWith("/") ? r.slice(0, -1) : r;
    if (trimmed.startsWith(`${root}/`) && trimmed.length > root.length + 1) return r;
  }
  return null;
}
