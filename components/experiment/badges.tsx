import type { ExperimentDetailView } from "@/server/experiments/experiment-views";

function Badge({ ok, label, no }: { ok: boolean | null; label: string; no: string }) {
  const cls = ok === true ? "border-green-300 bg-green-50 text-green-900" : ok === false ? "border-red-300 bg-red-50 text-red-900" : "border-slate-300 bg-slate-50 text-slate-700";
  return (
    <li className={`rounded-full border px-3 py-1 text-sm ${cls}`}>
      <span aria-hidden="true">{ok === true ? "✓ " : ok === false ? "✗ " : "… "}</span>
      {ok === true ? label : no}
    </li>
  );
}

/** Three separate facts, each from its own evidence (process exit; a receipt; a comparable comparison). */
export function ExperimentBadges({ exp }: { exp: ExperimentDetailView }) {
  const b = exp.badges;
  const better = b.comparable === false ? null : b.betterThanBaseline;
  return (
    <ul className="flex flex-wrap gap-2" aria-label="Outcome">
      <Badge ok={b.trainingFinished ? true : exp.steps.find((s) => s.step === "train")?.state === "failed" ? false : null} label="Training finished" no={exp.steps.find((s) => s.step === "train")?.state === "failed" ? "Training failed" : "Training not finished"} />
      <Badge ok={b.evaluationPassed ? true : null} label="Evaluation passed" no="Not evaluated yet" />
      <Badge
        ok={better}
        label="Better than baseline"
        no={b.comparable === false ? "Not comparable with the baseline" : b.betterThanBaseline === false ? "Not better than baseline" : "No comparison yet"}
      />
    </ul>
  );
}
