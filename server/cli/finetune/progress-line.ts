import type { FineTuneView } from "@/server/finetune/finetune.schema";
import { phaseName } from "../train/progress-line";

/** "about 40 s" / "about 3 min" / "about 1 h 5 min": an estimate, so never more precise than that. */
export function aboutDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 90) return `about ${s} s`;
  const minutes = Math.round(s / 60);
  return minutes < 60 ? `about ${minutes} min` : `about ${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/**
 * One human line for a fine-tuning experiment's state, printed when it changes: the step
 * in words, and while training the step count, the last training loss, tokens/s and ETA;
 * while a step waits its turn, what holds the computer.
 */
export function describeFineTuneProgress(v: FineTuneView): string {
  // Once failed, the step that failed: the phase's name would be the chain's last phase, not where it stopped.
  const where = v.step?.label ?? v.error?.step ?? phaseName(v.experiment.phase);
  const parts = [`[${v.experiment.status}] ${where}`];
  const t = v.training;
  if (t && v.step && !t.final) {
    // Before training's first event names its steps, the preflight's plan does (a short run may end before the next look).
    const planned = t.plannedSteps ?? (v.preflight && "time" in v.preflight ? v.preflight.time.plannedSteps : null);
    const live = [`step ${t.step}${planned ? `/${planned}` : ""}`];
    const loss = t.trainLoss.at(-1);
    if (loss) live.push(`loss ${loss.loss.toFixed(3)}`);
    if (t.tokensPerSecond !== null) live.push(`${Math.round(t.tokensPerSecond)} tokens/s`);
    if (t.etaSeconds !== null) live.push(`${aboutDuration(t.etaSeconds)} left`);
    if (t.resumedFromStep !== null) live.push(`resumed at step ${t.resumedFromStep}`);
    parts.push(`: ${live.join(", ")}`);
  }
  if (v.experiment.progressNote) parts.push(` (${v.experiment.progressNote})`);
  // A step waiting its turn says what for and which job holds it.
  if (v.waiting) parts.push(` — ${v.waiting}`);
  return parts.join("");
}

/** Lines said once, when each fact first appears: the imported base, the data checks, the preflight estimate. */
export function milestoneLines(v: FineTuneView): { key: string; line: string }[] {
  const out: { key: string; line: string }[] = [];
  if (v.base) {
    const from = v.base.source === "gguf" ? `, dequantized from ${v.base.dequantizedFrom}` : "";
    out.push({ key: "base", line: `Base model: ${v.base.name} (${v.base.architecture}, ${(v.base.parameters / 1e6).toFixed(1)} M parameters${from}).` });
  }
  if (v.checks) {
    const c = v.checks;
    const problems = c.lines.problems.count ? `, ${c.lines.problems.count} unusable lines (first: line ${c.lines.problems.lines[0]?.line}: ${c.lines.problems.lines[0]?.problem})` : "";
    const dups = c.duplicates.count ? `, ${c.duplicates.count} duplicates dropped` : "";
    const over = c.tokens.train.overMaxLength ? `, ${c.tokens.train.overMaxLength} longer than ${c.maxLength} tokens (they keep their start)` : "";
    out.push({ key: "checks", line: `Data: ${c.counts.train} training and ${c.counts.eval} evaluation examples${problems}${dups}${over}.` });
  }
  const p = v.preflight;
  if (p && "time" in p) {
    out.push({ key: "preflight", line: `Preflight on ${p.device.device}: ${p.time.note} (${Math.round(p.smokeStep.tokensPerSecond)} tokens/s measured on the longest examples${p.reusedFrom ? ` by an earlier preflight on this computer at ${p.reusedFrom.measuredAt}` : ""}).` });
  } else if (p) {
    const fit = p.memory.fitting.map((f) => `batch ${f.batchSize} x ${f.maxLength} tokens`).join(", ");
    out.push({ key: "preflight", line: `Preflight on ${p.device.device}: does not fit in memory${fit ? `; these would: ${fit}` : ""}.` });
  }
  return out;
}
