/**
 * The project Overview's answers for a fine-tuning experiment, in LoRA terms (pure;
 * unit-tested): what is fine-tuned on what, whether the adapter beats its base model by the
 * receipt (mean loss per answer token on the same held-out examples, exact match when an
 * answer pattern was given), and what the run cost. The tabular answers are in
 * overview-view.tsx; the page picks by the experiment's kind.
 */
import { formatDuration } from "@/components/experiment/format";
import type { FineTuneView } from "@/server/finetune/finetune.schema";

const nll = (v: number) => v.toFixed(3);
const pct = (v: number) => `${(v * 100).toFixed(1)} %`;

/** The base model by its imported name, else by what the settings name (a path, or an upload). */
export function baseModelWords(v: FineTuneView): string {
  if (v.base) return v.base.name;
  const b = v.experiment.settings.base;
  return b.kind === "path" ? (b.path.split(/[\\/]/).filter(Boolean).pop() ?? b.path) : "an uploaded model";
}

/** "What we are improving": the base, the examples, and the measure. */
export function fineTuneImprovingWords(v: FineTuneView): string {
  const c = v.checks?.counts;
  const examples = c ? `${c.train} training examples` : "your examples";
  const heldOut = c ? `${c.eval} held-out examples` : "held-out examples";
  return `Fine-tuning ${baseModelWords(v)} with a LoRA adapter (rank ${v.experiment.settings.rank}) on ${examples}, measured by the mean loss per answer token on ${heldOut} (lower is better)`;
}

/** What the verdict reads of a FineTuneView's receipt. */
interface ReceiptScores {
  examples: number;
  betterThanBase: boolean;
  base: { meanNll: number };
  adapter: { meanNll: number };
  exactMatch?: { examples: number; base: number; adapter: number } | null;
}
type BetterFacts = Pick<FineTuneView, "experiment" | "step" | "resumable" | "resumedBy"> & { receipt: ReceiptScores | null };

/** "Is the candidate better?": the adapter against its base model, only from the receipt. */
export function fineTuneBetterWords(v: BetterFacts, named = true): string {
  const e = v.experiment;
  const of = named ? ` (${e.name})` : "";
  const r = v.receipt;
  if (r) {
    const em = r.exactMatch ? `; exact match of the answer ${pct(r.exactMatch.adapter)} vs ${pct(r.exactMatch.base)} on ${r.exactMatch.examples} prompts` : "";
    const scores = `the adapter's mean loss per answer token is ${nll(r.adapter.meanNll)} against the base model's ${nll(r.base.meanNll)} on the same ${r.examples} held-out examples${em}`;
    return r.betterThanBase ? `Yes: ${scores}${of}.` : `No: ${scores}, not better${of}.`;
  }
  const resumed = v.resumedBy ? ` It was resumed as ${v.resumedBy.name}.` : v.resumable ? " Its training saved a checkpoint: Resume continues it." : "";
  switch (e.status) {
    case "running":
      return `Not known yet: ${e.name} is still running${v.step ? ` (${v.step.label.toLowerCase()})` : ""}.`;
    case "failed":
      return `No answer: ${e.name} failed before the adapter was scored.${e.reason ? ` ${e.reason}` : ""}${resumed}`;
    case "cancelled":
      return `No answer: ${e.name} was cancelled before the adapter was scored.${resumed}`;
    case "timed_out":
      return `No answer: ${e.name} ran out of time before the adapter was scored.${resumed}`;
    default:
      return `Not known yet: ${e.name} has not been scored.`;
  }
}

/** "What it cost": the run's wall time and its training throughput. */
export function fineTuneCostWords(v: FineTuneView, seconds: number): string {
  const t = v.training?.final;
  const training = t ? `; ${t.steps} training steps at ${Math.round(t.tokensPerSecond)} tokens/s` : "";
  return `${formatDuration(seconds)} in total on ${v.experiment.targetName}${training}.`;
}
