"use client";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useMemo } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { ErrorMessage } from "@/components/ui/status-message";
import { errorText } from "@/components/ui/error-text";
import { fieldErrors } from "./finetune-words";
import { baseLabel, settingsOf, type FineTuneChoices } from "./wizard-state";
import { FactList } from "@/components/ui/fact-list";

const newOpId = () => (typeof crypto !== "undefined" && "randomUUID" in crypto ? crypto.randomUUID() : `op-${Date.now()}-${Math.random().toString(36).slice(2)}`);

type Props = {
  projectId: string;
  choices: FineTuneChoices;
  computer: string;
  computerId: string | null;
  dataName: string;
  evalName: string | null;
  /** Problems found before Start; Start stays disabled while there are any. */
  problems: Record<string, string>;
  /** The server refused the input: its issues by field, for the steps to show. */
  onRefused: (errors: Record<string, string>) => void;
  /** The run started: the wizard drops its kept choices. */
  onStarted: () => void;
};

/**
 * Step 6: every choice at a glance, then Start. One operation id per reviewed intent: a
 * double click or a retried request starts one experiment; a changed choice is a new one.
 */
export function StepFineTuneReview({ projectId, choices: c, computer, computerId, dataName, evalName, problems, onRefused, onStarted }: Props) {
  const trpc = useTRPC();
  const router = useRouter();
  const settings = settingsOf(c);
  const input = { projectId, datasetId: c.datasetId ?? "", ...(c.evalDatasetId && { evalDatasetId: c.evalDatasetId }), ...(computerId && { targetId: computerId }), settings };
  const intent = JSON.stringify(input);
  const opId = useMemo(() => (intent ? newOpId() : ""), [intent]);
  const start = useMutation(
    trpc.finetune.start.mutationOptions({
      onSuccess: (view) => {
        onStarted();
        router.push(`/projects/${projectId}/ml/experiments/${view.experiment.id}`);
      },
      onError: (err) => {
        const byField = fieldErrors(err);
        if (Object.keys(byField).length) onRefused(byField);
      },
    }),
  );
  const rows: [string, string][] = [
    ["Computer", computer],
    ["Base model", baseLabel(c.base)],
    ["Training examples", dataName],
    ["Evaluation", evalName ?? `${Math.round(c.evalFraction * 100)} % of the examples, held out by prompt`],
    ["Device", c.device],
    ["LoRA", `rank ${c.rank}, alpha ${c.alpha ?? 2 * c.rank}, learning rate ${c.learningRate}`],
    ["Examples", `up to ${c.maxLength} tokens, batches of ${c.batchSize}`],
    ["Budget", `${c.epochs} epoch${c.epochs === 1 ? "" : "s"}${c.maxSteps !== null ? `, at most ${c.maxSteps} step${c.maxSteps === 1 ? "" : "s"}` : ""}, at most ${c.maxMinutes} min`],
    ["If the steps do not fit the minutes", c.fitToBudget ? "train the steps that fit" : "stop before training and say how many fit"],
    ["Answer pattern", c.answerPattern.trim() || "none"],
  ];
  const problemList = Object.values(problems);
  const go = () => start.mutate({ opId, ...input });
  return (
    <div className="flex flex-col gap-4">
      <FactList rows={rows} label="Review" className="rounded-md border border-slate-200 bg-white p-3" />
      {problemList.length > 0 && (
        <ul className="list-disc pl-5 text-sm text-amber-900" aria-label="To fix before starting">
          {problemList.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
      <Button className="self-start" disabled={problemList.length > 0 || start.isPending || start.isSuccess} onClick={go}>
        {start.isPending || start.isSuccess ? "Starting…" : "Start fine-tuning"}
      </Button>
      {start.error && (
        <div className="flex flex-col gap-2">
          <ErrorMessage>Could not start: {errorText(start.error)}</ErrorMessage>
          <Button variant="secondary" className="self-start" onClick={go}>
            Try again
          </Button>
        </div>
      )}
    </div>
  );
}
