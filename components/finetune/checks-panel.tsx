import type { LoraChecks } from "@/contracts/recipes/llm-lora";
import { Conversations } from "./conversation";
import { FactList } from "@/components/ui/fact-list";

/** The data checks before training: usable lines, problems with line numbers, duplicates, the split, token lengths. */
export function ChecksPanel({ checks }: { checks: LoraChecks }) {
  const t = checks.tokens;
  const split =
    checks.split.strategy === "user_file"
      ? `evaluation file ${checks.split.evalFile}${checks.split.evalProblems.count ? ` (${checks.split.evalProblems.count} unusable lines)` : ""}`
      : `${Math.round(checks.split.evalFraction * 100)} % held out at random by prompt (seed ${checks.split.seed})`;
  const rows: [string, string][] = [
    ["Formats", checks.formats.join(", ")],
    ["Examples", `${checks.counts.train} for training, ${checks.counts.eval} for evaluation (${checks.lines.usable} usable lines)`],
    ["Evaluation set", split],
    ["Problem lines", checks.lines.problems.count ? `${checks.lines.problems.count}: ${checks.lines.problems.lines.slice(0, 5).map((l) => `line ${l.line} ${l.problem}`).join("; ")}` : "none"],
    ["Duplicates", checks.duplicates.count ? `${checks.duplicates.count} (${checks.duplicates.rule})` : "none"],
    ["Overlap with evaluation", checks.overlap.removedFromTraining ? `${checks.overlap.removedFromTraining} training examples removed (same ${checks.overlap.rule})` : "none"],
    ...(checks.holdout ? [["Kept out for the project’s holdout", `${checks.holdout.removed} examples (same ${checks.holdout.rule} as a reserved holdout example)`] as [string, string]] : []),
    ["Token lengths (training)", `min ${t.train.min}, median ${t.train.p50}, 95th percentile ${t.train.p95}, max ${t.train.max}`],
    ["Over the max length", t.train.overMaxLength ? `${t.train.overMaxLength} of ${t.train.count} over ${checks.maxLength} tokens: ${checks.truncation}` : `none over ${checks.maxLength} tokens`],
  ];
  if (t.train.droppedNoAnswerLeft) rows.push(["Dropped", `${t.train.droppedNoAnswerLeft} training examples had no answer left after truncation`]);
  return (
    <div className="flex flex-col gap-3">
      <FactList rows={rows} label="Data checks" />
      <details className="text-sm">
        <summary className="min-h-10 cursor-pointer font-medium">First training examples</summary>
        <Conversations examples={checks.preview} label="First training examples" />
      </details>
    </div>
  );
}
