"use client";
import { Field, numberFrom } from "@/components/ui/field";
import type { FineTuneChoices } from "./wizard-state";

type Props = { choices: FineTuneChoices; update: (p: Partial<FineTuneChoices>) => void; errors: Record<string, string>; computer: string };

/** Step 5: the time budget and epochs, and an optional answer pattern for exact match. */
export function StepFineTuneBudget({ choices: c, update, errors, computer }: Props) {
  return (
    <div className="flex flex-col gap-4">
      <div className="grid gap-3 sm:grid-cols-2">
        <Field
          id="ft-minutes"
          label="Max minutes (whole experiment)"
          type="number"
          min={1}
          max={1440}
          step={1}
          value={c.maxMinutes}
          onChange={(e) => update({ maxMinutes: numberFrom(e.target.value, c.maxMinutes) })}
          error={errors["settings.maxMinutes"]}
        />
        <Field id="ft-epochs" label="Epochs" type="number" min={0.01} max={100} step="any" value={c.epochs} onChange={(e) => update({ epochs: numberFrom(e.target.value, c.epochs) })} error={errors["settings.epochs"]} />
      </div>
      <Field
        id="ft-answer-pattern"
        label="Answer pattern (optional)"
        value={c.answerPattern}
        onChange={(e) => update({ answerPattern: e.target.value })}
        placeholder="#### (\S+)"
        hint="A regular expression with one group around the final answer: the base and the adapter then answer evaluation prompts greedily and their exact match is reported."
        error={errors["settings.answerPattern"]}
      />
      <p className="rounded-md bg-slate-50 p-3 text-sm text-slate-800" data-testid="budget-summary">
        Runs on <strong>{computer}</strong> for at most <strong>{c.maxMinutes} minutes</strong>, import, checks, preflight and evaluation included. Before training, the preflight measures one step on the
        longest examples and refuses a setup that does not fit the memory or this budget, with the smaller settings that would.
      </p>
    </div>
  );
}
