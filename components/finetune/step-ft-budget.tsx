"use client";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc";
import { Field, numberFrom } from "@/components/ui/field";
import type { FineTuneChoices } from "./wizard-state";

type Props = { choices: FineTuneChoices; update: (p: Partial<FineTuneChoices>) => void; errors: Record<string, string>; computer: string; computerId: string | null };

/**
 * Step 5: the time budget, epochs and an optional step cap, what to do when the steps do not
 * fit the minutes, and an optional answer pattern for exact match. No step count is guessed
 * for the user: how many steps fit depends on the model, the examples and the computer, which
 * only the preflight measures. By default the run then trains the steps that fit; unticked,
 * it stops before training and its page starts the run that fits in one tap.
 */
export function StepFineTuneBudget({ choices: c, update, errors, computer, computerId }: Props) {
  return (
    <div className="flex flex-col gap-4">
      <div className="grid gap-3 sm:grid-cols-3">
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
        <Field
          id="ft-max-steps"
          label="Max steps (optional)"
          type="number"
          min={1}
          max={1_000_000}
          step={1}
          value={c.maxSteps ?? ""}
          placeholder="none"
          onChange={(e) => update({ maxSteps: e.target.value.trim() === "" ? null : numberFrom(e.target.value, c.maxSteps ?? 1) })}
          hint={`Training stops after this many steps (batches of ${c.batchSize}), even before the epochs are done.`}
          error={errors["settings.maxSteps"]}
        />
      </div>
      <div className="flex min-h-10 items-start gap-2 text-sm">
        <input
          id="ft-fit-to-budget"
          type="checkbox"
          className="mt-0.5 h-5 w-5 shrink-0"
          aria-describedby="ft-fit-to-budget-hint"
          checked={c.fitToBudget}
          onChange={(e) => update({ fitToBudget: e.target.checked })}
        />
        <div>
          <label htmlFor="ft-fit-to-budget">Train the steps that fit the minutes</label>
          <p id="ft-fit-to-budget-hint" className="text-slate-700">
            When the preflight finds the {c.maxSteps !== null ? "step cap" : "passes over the examples"} longer than the minutes allow, the run trains as many steps as fit. Untick to stop before
            training instead.
          </p>
        </div>
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
      <div className="flex flex-col gap-2 rounded-md bg-slate-50 p-3 text-sm text-slate-800" data-testid="budget-summary">
        <p>
          Runs on <strong>{computer}</strong> for at most <strong>{c.maxMinutes} minutes</strong>
          {c.maxSteps !== null && (
            <>
              {" "}
              and <strong>{c.maxSteps} steps</strong>
            </>
          )}
          , import, checks, preflight and evaluation included.
        </p>
        <PreflightPromise computerId={computerId} choices={c} />
      </div>
    </div>
  );
}

/**
 * What the preflight will check on this computer, and what it offers when the run does not
 * fit. The CPU words are computer-ability.tsx's measured speed (a 135M-parameter model at
 * about 100 tokens/s on 2 cores), not an estimate for this model and data.
 */
function PreflightPromise({ computerId, choices: c }: { computerId: string | null; choices: FineTuneChoices }) {
  const trpc = useTRPC();
  const detail = useQuery({ ...trpc.targets.get.queryOptions({ id: computerId ?? "" }), enabled: Boolean(computerId) });
  const probe = detail.data?.probe;
  const plan = c.maxSteps !== null ? `${c.maxSteps} steps` : `${c.epochs} epoch${c.epochs === 1 ? "" : "s"}`;
  return (
    <>
      {probe && probe.gpus.length === 0 && (
        <p data-testid="budget-cpu">
          This computer has {probe.cpus} CPUs and no GPU. On CPU a small model (135M parameters) trains at about 100 tokens/s: minutes are enough for a few hundred short examples, not for thousands.
        </p>
      )}
      <p data-testid="budget-preflight">
        Before training, the preflight times one step on your longest examples on {c.device}.{" "}
        {c.fitToBudget ? (
          <>
            If {plan} would not fit these minutes, the run trains the steps that do and its page says how many. If the memory does not fit, it stops there, before training, and the run’s page
            offers a smaller batch and length in one tap.
          </>
        ) : (
          <>
            If {plan} would not fit these minutes (or the memory), it stops there, before training, and the run’s page offers “Run again with at most N steps” (or a smaller batch and length) with
            the numbers it measured, in one tap.
          </>
        )}
      </p>
    </>
  );
}
