"use client";
/**
 * "Fine-tune a language model": six steps from the computer to Start. Choices are kept in
 * this tab's sessionStorage per project (wizard-storage.ts), so a reload comes back to them,
 * and dropped once the run starts (the saved drafts are the tabular wizard's); an error the
 * server gives for a field sends the user to that field's step, where it shows under the field.
 */
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState, useSyncExternalStore } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { chooseComputer } from "@/components/wizard/choose-computer";
import { StepComputer } from "@/components/wizard/step-computer";
import { BackNext, useStepHeadingFocus, WizardSteps } from "@/components/wizard/wizard-steps";
import { ComputerAbility } from "./computer-ability";
import { StepBaseModel } from "./step-base-model";
import { StepExamples } from "./step-examples";
import { StepFineTuneBudget } from "./step-ft-budget";
import { StepFineTuneReview } from "./step-ft-review";
import { StepSettings } from "./step-settings";
import { baseChosen, firstStepWithError, INITIAL_CHOICES, settingsErrors, STEP_TITLES, type FineTuneChoices } from "./wizard-state";
import { clearChoices, restoreChoices, saveChoices, tabStore } from "./wizard-storage";
import { Loading } from "@/components/ui/status-message";

const noSubscription = () => () => {};

/** The kept choices are in the browser only: the wizard starts once it runs there, so the server's HTML never differs from the first render. */
export function FineTuneWizard({ projectId }: { projectId: string }) {
  const inBrowser = useSyncExternalStore(noSubscription, () => true, () => false);
  return inBrowser ? <Wizard key={projectId} projectId={projectId} /> : <Loading label="Loading the wizard…" />;
}

function Wizard({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const [c, setChoices] = useState<FineTuneChoices>(() => {
    const store = tabStore();
    return (store && restoreChoices(store, projectId)) ?? INITIAL_CHOICES;
  });
  useEffect(() => {
    const store = tabStore();
    if (store) saveChoices(store, projectId, c);
  }, [projectId, c]);
  const [refused, setRefused] = useState<Record<string, string>>({});
  const targets = useQuery(trpc.targets.list.queryOptions());
  const project = useQuery(trpc.projects.get.queryOptions({ id: projectId }));
  const dataset = useQuery({ ...trpc.datasets.get.queryOptions({ id: c.datasetId ?? "" }), enabled: Boolean(c.datasetId) });
  const evalSet = useQuery({ ...trpc.datasets.get.queryOptions({ id: c.evalDatasetId ?? "" }), enabled: Boolean(c.evalDatasetId) });
  const heading = useStepHeadingFocus(c.step);

  // A changed choice is a new intent: the server's earlier refusal no longer applies.
  const update = (patch: Partial<FineTuneChoices>) => {
    setRefused({});
    setChoices((old) => ({ ...old, ...patch }));
  };
  const go = (step: number) => setChoices((old) => ({ ...old, step }));
  const computer = chooseComputer(targets.data ?? [], c.targetId, project.data?.defaultTargetId ?? null);
  const d = dataset.data;
  const problems: Record<string, string> = { ...settingsErrors(c) };
  if (!c.datasetId) problems.datasetId = "Choose or upload the training examples.";
  else if (d && d.kind !== "examples") problems.datasetId = `${d.name} is a table, not a file of examples.`;
  else if (d && d.status !== "ready") problems.datasetId = d.status === "failed" ? `${d.name} could not be read.` : `${d.name} is still being read.`;
  const errors = { ...problems, ...refused };
  // Empty fields are flagged only once the user reaches the review or the server refused them.
  const shown = c.step === STEP_TITLES.length - 1 || Object.keys(refused).length ? errors : { ...refused, ...withValues(problems, c) };
  const canNext = [Boolean(computer), baseChosen(c.base), d?.status === "ready" && d.kind === "examples", true, true, false][c.step];

  return (
    <section aria-labelledby="wizard-title" className="flex flex-col gap-4">
      <h2 id="wizard-title" className="text-lg font-semibold">
        Fine-tune a language model
      </h2>
      <WizardSteps titles={STEP_TITLES} step={c.step} go={go} />
      <div className="flex min-w-0 flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4">
        <h3 ref={heading} tabIndex={-1} className="text-base font-semibold outline-none">
          Step {c.step + 1} of {STEP_TITLES.length}: {STEP_TITLES[c.step]}
        </h3>
        {c.step === 0 && (
          <>
            <StepComputer projectId={projectId} targetId={c.targetId} onChange={(targetId) => update({ targetId })} />
            {computer && <ComputerAbility targetId={computer.id} />}
          </>
        )}
        {c.step === 1 && <StepBaseModel projectId={projectId} base={c.base} onChange={(base) => update({ base })} error={shown["settings.base.path"] ?? shown["settings.base"]} />}
        {c.step === 2 && <StepExamples projectId={projectId} datasetId={c.datasetId} evalDatasetId={c.evalDatasetId} evalFraction={c.evalFraction} onChange={update} errors={refused} />}
        {c.step === 3 && <StepSettings choices={c} update={update} errors={shown} />}
        {c.step === 4 && <StepFineTuneBudget choices={c} update={update} errors={shown} computer={computer?.name ?? "This computer"} computerId={computer?.id ?? null} />}
        {c.step === 5 && (
          <StepFineTuneReview
            projectId={projectId}
            choices={c}
            computer={computer?.name ?? "This computer"}
            computerId={project.isPending ? null : (computer?.id ?? null)}
            dataName={d ? `${d.name}${d.rowCount !== null ? ` (${d.rowCount} lines)` : ""}` : "—"}
            evalName={c.evalDatasetId ? (evalSet.data?.name ?? "…") : null}
            problems={problems}
            onStarted={() => {
              const store = tabStore();
              if (store) clearChoices(store, projectId);
            }}
            onRefused={(byField) => {
              setRefused(byField);
              go(firstStepWithError(byField));
            }}
          />
        )}
        <BackNext step={c.step} steps={STEP_TITLES.length} canNext={Boolean(canNext)} go={go} />
      </div>
    </section>
  );
}

/** Problems of fields the user has filled in (an untouched empty path is not an error yet). */
function withValues(problems: Record<string, string>, c: FineTuneChoices): Record<string, string> {
  const out = { ...problems };
  if (!baseChosen(c.base)) delete out["settings.base.path"];
  delete out.datasetId;
  return out;
}
