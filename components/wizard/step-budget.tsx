"use client";
import type { TWizardDraftData } from "@/server/drafts/drafts.schema";

type Props = { draft: TWizardDraftData; update: (p: Partial<TWizardDraftData>) => void; computer: string; dataWhere: string };

/** Step 5: quick baseline or improve within a budget; states the computer, the limits and where the data lives. */
export function StepBudget({ draft, update, computer, dataWhere }: Props) {
  const num = (v: string, min: number, max: number) => Math.min(max, Math.max(min, Number(v) || min));
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
            <span className="block text-sm text-slate-700">Tries more models and settings, never past the limits below.</span>
          </span>
        </label>
      </fieldset>
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="flex flex-col gap-1">
          <label htmlFor="wizard-minutes" className="text-sm font-medium">
            Max minutes (whole experiment)
          </label>
          <input id="wizard-minutes" type="number" min={1} max={1440} step={1} className="min-h-10 rounded-md border border-slate-400 px-3" value={draft.maxMinutes} onChange={(e) => update({ maxMinutes: num(e.target.value, 1, 1440) })} />
        </div>
        {draft.mode === "improve" && (
          <div className="flex flex-col gap-1">
            <label htmlFor="wizard-trials" className="text-sm font-medium">
              Max trials
            </label>
            <input id="wizard-trials" type="number" min={1} max={1000} step={1} className="min-h-10 rounded-md border border-slate-400 px-3" value={draft.maxTrials} onChange={(e) => update({ maxTrials: Math.round(num(e.target.value, 1, 1000)) })} />
          </div>
        )}
      </div>
      <p className="rounded-md bg-slate-50 p-3 text-sm text-slate-800" data-testid="budget-summary">
        Trains on <strong>{computer}</strong> for at most <strong>{draft.maxMinutes} minutes</strong>
        {draft.mode === "improve" && (
          <>
            {" "}
            and <strong>{draft.maxTrials} trials</strong>
          </>
        )}
        , evaluation and export included. The data lives {dataWhere}.
      </p>
    </div>
  );
}
