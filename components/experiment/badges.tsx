import type { ExperimentDetailView } from "@/server/experiments/experiment-views";

function Badge({ ok, text }: { ok: boolean | null; text: string }) {
  const cls = ok === true ? "border-green-300 bg-green-50 text-green-900" : ok === false ? "border-red-300 bg-red-50 text-red-900" : "border-slate-300 bg-slate-50 text-slate-700";
  return (
    <li className={`rounded-full border px-3 py-1 text-sm ${cls}`}>
      <span aria-hidden="true">{ok === true ? "✓ " : ok === false ? "✗ " : "… "}</span>
      {text}
    </li>
  );
}

/** "Training finished" only for a model that was made and kept (a cancel-stopped training is cancelled). */
const TRAINING: Record<ExperimentDetailView["training"], { ok: boolean | null; text: string }> = {
  finished: { ok: true, text: "Training finished" },
  failed: { ok: false, text: "Training failed" },
  cancelled: { ok: null, text: "Training cancelled" },
  timed_out: { ok: false, text: "Training ran out of time" },
  running: { ok: null, text: "Training in progress" },
  not_started: { ok: null, text: "Training not started" },
};

/** Three separate facts, each from its own evidence (the train step; a receipt; a comparable comparison). */
export function ExperimentBadges({ exp }: { exp: ExperimentDetailView }) {
  const b = exp.badges;
  const better = b.comparable === false ? null : b.betterThanBaseline;
  const training = TRAINING[exp.training];
  return (
    <ul className="flex flex-wrap gap-2" aria-label="Outcome">
      <Badge ok={training.ok} text={training.text} />
      <Badge ok={b.evaluationPassed ? true : null} text={b.evaluationPassed ? "Evaluation passed" : "Not evaluated"} />
      <Badge
        ok={better}
        text={better === true ? "Better than baseline" : b.comparable === false ? "Not comparable with the baseline" : b.betterThanBaseline === false ? "Not better than baseline" : "No comparison"}
      />
    </ul>
  );
}
