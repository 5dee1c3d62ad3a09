"use client";
import type { TWizardDraftData } from "@/server/drafts/drafts.schema";
import { SEARCH_LIMITS, trialMinutesFor } from "@/contracts/searches/search-spec";
import { metricLabel } from "@/contracts/vocabulary";
import { Field } from "@/components/ui/field";

type Props = { draft: TWizardDraftData; update: (p: Partial<TWizardDraftData>) => void; computer: string; dataWhere: string };

/** A number box's value within [min, max]; empty or unreadable reads as min. */
const clamped = (v: string, min: number, max: number) => Math.min(max, Math.max(min, Number(v) || min));

/** A whole number from 1 to `max`. */
function WholeNumberField({ max, onValue, ...field }: { id: string; label: string; hint?: string; max: number; value: number; onValue: (n: number) => void }) {
  return <Field {...field} type="number" min={1} max={max} step={1} onChange={(e) => onValue(Math.round(clamped(e.target.value, 1, max)))} />;
}

/** An optional number: empty is null; anything else within [min, max]. */
const optional = (v: string, min: number, max: number, int = false): number | null => {
  if (v.trim() === "") return null;
  const n = Number(v);
  if (!Number.isFinite(n)) return null;
  const c = Math.min(max, Math.max(min, n));
  return int ? Math.round(c) : c;
};

/**
 * Step 5: quick baseline (one experiment) or improve within a budget (a search of trials);
 * states the computer, the limits and where the data lives.
 */
export function StepBudget({ draft, update, computer, dataWhere }: Props) {
  const trials = Math.min(draft.maxTrials, SEARCH_LIMITS.maxTrials);
  const parallel = Math.min(trials, draft.parallelTrials);
  return (
    <div className="flex flex-col gap-4">
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium text-slate-800">How much effort</legend>
        <label className="flex min-h-10 items-start gap-2 rounded-md border border-slate-300 bg-white p-3">
          <input type="radio" name="mode" className="mt-0.5 h-5 w-5" checked={draft.mode === "quick"} onChange={() => update({ mode: "quick" })} />
          <span>
            <span className="font-medium">Quick baseline</span>
            <span className="block text-sm text-slate-700">A few fast models with default settings — a first honest answer.</span>
          </span>
        </label>
        <label className="flex min-h-10 items-start gap-2 rounded-md border border-slate-300 bg-white p-3">
          <input type="radio" name="mode" className="mt-0.5 h-5 w-5" checked={draft.mode === "improve"} onChange={() => update({ mode: "improve" })} />
          <span>
            <span className="font-medium">Improve within a budget</span>
            <span className="block text-sm text-slate-700">A search: tries one model and setting after another, compares them on validation and keeps the best, never past the limits below.</span>
          </span>
        </label>
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field
          id="wizard-minutes"
          label={draft.mode === "improve" ? "Max minutes (whole search)" : "Max minutes (whole experiment)"}
          type="number"
          min={1}
          max={1440}
          step={1}
          value={draft.maxMinutes}
          onChange={(e) => update({ maxMinutes: clamped(e.target.value, 1, 1440) })}
        />
        {draft.mode === "improve" && (
          <>
            <WholeNumberField id="wizard-trials" label="Max trials" max={SEARCH_LIMITS.maxTrials} value={draft.maxTrials} onValue={(maxTrials) => update({ maxTrials })} />
            <WholeNumberField
              id="wizard-parallel"
              label="Trials at once"
              hint="Each trial at once trains on an even share of the computer's CPUs. 1: one trial after another."
              max={SEARCH_LIMITS.maxParallelTrials}
              value={draft.parallelTrials}
              onValue={(parallelTrials) => update({ parallelTrials })}
            />
            <Field
              id="wizard-min-gain"
              label="Minimum useful gain (optional)"
              hint={`How much better than the baseline a trial must be on validation ${draft.metric ? `(in ${metricLabel(draft.metric)})` : ""} to be worth keeping, e.g. 0.01. Empty: any gain counts. Below it the search keeps the baseline.`}
              type="number"
              min={0}
              step="any"
              inputMode="decimal"
              value={draft.minUsefulGain ?? ""}
              onChange={(e) => update({ minUsefulGain: optional(e.target.value, 0, 1e9) })}
            />
            <Field
              id="wizard-patience"
              label="Patience in trials (optional)"
              hint="Stop early after this many trials in a row that do not beat the best so far by the minimum gain. Empty: use every trial or minute."
              type="number"
              min={1}
              max={SEARCH_LIMITS.maxPatience}
              step={1}
              value={draft.patience ?? ""}
              onChange={(e) => update({ patience: optional(e.target.value, 1, SEARCH_LIMITS.maxPatience, true) })}
            />
          </>
        )}
      </div>
      <p className="rounded-md bg-slate-50 p-3 text-sm text-slate-800" data-testid="budget-summary">
        Trains on <strong>{computer}</strong> for at most <strong>{draft.maxMinutes} minutes</strong>
        {draft.mode === "improve" && (
          <>
            {" "}
            and <strong>{trials} trials</strong> ({parallel > 1 ? `${parallel} at once, ` : ""}each at most {trialMinutesFor(draft.maxMinutes, trials, parallel)} min)
          </>
        )}
        , evaluation and export included{draft.mode === "improve" && "; the chosen model is scored once on the test rows at the end"}. The data lives {dataWhere}.
      </p>
    </div>
  );
}
