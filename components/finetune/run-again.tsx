"use client";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { ErrorMessage } from "@/components/ui/status-message";
import { errorText } from "@/components/ui/error-text";
import type { FineTuneView, TFineTuneSettings } from "@/server/finetune/finetune.schema";
import { choicesOfRun, type FineTuneChoices } from "./wizard-state";
import { saveChoices, tabStore } from "./wizard-storage";

const newOpId = () => (typeof crypto !== "undefined" && "randomUUID" in crypto ? crypto.randomUUID() : `op-${Date.now()}-${Math.random().toString(36).slice(2)}`);

/**
 * A failed, timed-out or cancelled fine-tune started again as a new experiment on the same
 * data, computer and settings (finetune.start): as it was, and, when the recipe named
 * settings that would fit (RunError.retry: the preflight's steps, or batch size and length),
 * with those, as the first button; or opened in the wizard with its choices, to change any
 * of them first (Edit settings). One opId per button per visit: a double tap starts one run.
 */
export function RunAgain({ view }: { view: FineTuneView }) {
  const trpc = useTRPC();
  const router = useRouter();
  const exp = view.experiment;
  const retry = view.error?.retry ?? null;
  const [sameOpId] = useState(newOpId);
  const [fixedOpId] = useState(newOpId);
  const open = (next: FineTuneView) => router.push(`/projects/${next.experiment.projectId}/ml/experiments/${next.experiment.id}`);
  const same = useMutation(trpc.finetune.start.mutationOptions({ onSuccess: open }));
  const fixed = useMutation(trpc.finetune.start.mutationOptions({ onSuccess: open }));
  const start = (opId: string, settings: TFineTuneSettings) =>
    ({ opId, projectId: exp.projectId, datasetId: exp.datasetId, ...(exp.evalDatasetId && { evalDatasetId: exp.evalDatasetId }), targetId: exp.targetId, settings }) as const;
  const busy = same.isPending || same.isSuccess || fixed.isPending || fixed.isSuccess;
  // Edit: the wizard opens on this run's choices, at its review (it reads them from this tab's storage).
  const edited = choicesOfRun(exp);
  const openInWizard = (choices: FineTuneChoices) => {
    const store = tabStore();
    if (store) saveChoices(store, exp.projectId, choices);
    router.push(`/projects/${exp.projectId}/ml/finetune`);
  };
  const error = fixed.error ?? same.error;
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap gap-2">
        {retry && (
          <Button disabled={busy} onClick={() => fixed.mutate(start(fixedOpId, { ...exp.settings, ...retry.settings }))}>
            {fixed.isPending || fixed.isSuccess ? "Starting…" : retry.words}
          </Button>
        )}
        <Button variant={retry || view.resumable ? "secondary" : "primary"} disabled={busy} onClick={() => same.mutate(start(sameOpId, exp.settings))}>
          {same.isPending || same.isSuccess ? "Starting…" : "Run again"}
        </Button>
        {edited && (
          <Button variant="secondary" disabled={busy} onClick={() => openInWizard(edited)}>
            Edit settings…
          </Button>
        )}
      </div>
      {error && <ErrorMessage>Could not start it again: {errorText(error)}</ErrorMessage>}
    </div>
  );
}
