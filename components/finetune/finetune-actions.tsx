"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { ErrorMessage } from "@/components/ui/status-message";
import { errorText } from "@/components/ui/error-text";
import { experimentLifecycle } from "@/contracts/lifecycles";
import type { FineTuneView } from "@/server/finetune/finetune.schema";

const newOpId = () => (typeof crypto !== "undefined" && "randomUUID" in crypto ? crypto.randomUUID() : `op-${Date.now()}-${Math.random().toString(36).slice(2)}`);

/**
 * Cancel while it runs (asked once more: a stray tap on a phone would stop minutes of
 * training; training saves a checkpoint), Resume when it stopped with one and no attempt
 * resumed it yet, and a link to the attempt it continues or that continued it.
 */
export function FineTuneActions({ view }: { view: FineTuneView }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const exp = view.experiment;
  const ended = experimentLifecycle.isTerminal(exp.status);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.finetune.get.queryKey({ id: exp.id }) });
  const cancel = useMutation(trpc.experiments.cancel.mutationOptions({ onSuccess: refresh }));
  // One id per visit: a double click on Resume starts one attempt.
  const [resumeOpId] = useState(newOpId);
  const resume = useMutation(
    trpc.finetune.resume.mutationOptions({
      onSuccess: (next) => (next.experiment.id === exp.id ? refresh() : router.push(`/projects/${exp.projectId}/ml/experiments/${next.experiment.id}`)),
    }),
  );
  const [asking, setAsking] = useState(false);
  // The attempt that continued this one, else the one this continues.
  const other = view.resumedBy ?? view.resumedFrom;
  const error = cancel.error ?? resume.error;
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap gap-2">
        {!ended && (
          <Button variant="danger" disabled={cancel.isPending || cancel.isSuccess || asking} onClick={() => setAsking(true)} aria-expanded={asking} aria-controls="ft-confirm-cancel">
            {cancel.isPending || cancel.isSuccess ? "Cancelling…" : "Cancel training"}
          </Button>
        )}
        {ended && view.resumable && (
          <Button disabled={resume.isPending || resume.isSuccess} onClick={() => resume.mutate({ id: exp.id, opId: resumeOpId })}>
            {resume.isPending ? "Resuming…" : "Resume from the checkpoint"}
          </Button>
        )}
      </div>
      {other && (
        <p className="text-sm text-slate-800" data-testid="ft-resume-link">
          {view.resumedBy ? "Resumed as " : "Continues "}
          <Link className="text-blue-800 underline" href={`/projects/${exp.projectId}/ml/experiments/${other.id}`}>
            {other.name}
          </Link>
          {view.resumedBy ? ": follow that one." : ", from its last checkpoint."}
        </p>
      )}
      {asking && !ended && (
        <div id="ft-confirm-cancel" role="group" aria-label="Confirm cancel" className="flex flex-col gap-2 rounded-md border border-slate-300 bg-slate-50 p-3 text-sm">
          <p>Stop this fine-tuning now? Training saves a checkpoint first, so it can be resumed.</p>
          <div className="flex flex-wrap gap-2">
            <Button
              variant="danger"
              onClick={() => {
                setAsking(false);
                cancel.mutate({ id: exp.id });
              }}
            >
              Yes, cancel training
            </Button>
            <Button variant="secondary" onClick={() => setAsking(false)}>
              Keep training
            </Button>
          </div>
        </div>
      )}
      {error && <ErrorMessage>{errorText(error)}</ErrorMessage>}
    </div>
  );
}
