"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { ErrorMessage } from "@/components/ui/status-message";
import { errorText } from "@/components/ui/error-text";
import { experimentLifecycle } from "@/contracts/lifecycles";
import { formatBytes } from "@/contracts/vocabulary";
import type { FineTuneView } from "@/server/finetune/finetune.schema";
import { RunAgain } from "./run-again";

const newOpId = () => (typeof crypto !== "undefined" && "randomUUID" in crypto ? crypto.randomUUID() : `op-${Date.now()}-${Math.random().toString(36).slice(2)}`);

/**
 * Cancel while it runs (asked once more: a stray tap on a phone would stop minutes of
 * training; training saves a checkpoint), Resume when it stopped with one and no attempt
 * resumed it yet, and a link to the attempt it continues or that continued it. Once it
 * stopped without success: Run again (with the fix the recipe named, run-again.tsx); once
 * ended: Delete, asked once more with what it frees (experiments.delete, as for every kind).
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
  const [deleting, setDeleting] = useState(false);
  const preview = useQuery({ ...trpc.experiments.deletePreview.queryOptions({ id: exp.id }), enabled: deleting });
  const del = useMutation(
    trpc.experiments.delete.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.experiments.pathKey() });
        router.push(`/projects/${exp.projectId}/ml/experiments`);
      },
    }),
  );
  // The attempt that continued this one, else the one this continues.
  const other = view.resumedBy ?? view.resumedFrom;
  const error = cancel.error ?? resume.error ?? del.error ?? preview.error;
  return (
    <div className="flex flex-col gap-2">
      {(!ended || view.resumable) && (
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
      )}
      {ended && exp.status !== "succeeded" && <RunAgain view={view} />}
      {ended && (
        <Button variant="secondary" className="self-start" onClick={() => setDeleting((d) => !d)} aria-expanded={deleting} aria-controls="ft-delete-panel">
          Delete…
        </Button>
      )}
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
      {deleting && ended && (
        <div id="ft-delete-panel" className="flex flex-col gap-2 rounded-md border border-red-200 bg-red-50 p-3 text-sm">
          {preview.isPending && <p role="status">Working out what deleting frees…</p>}
          {preview.data && !preview.data.canDelete && <p>{preview.data.name} cannot be deleted now: {preview.data.reason}</p>}
          {preview.data?.canDelete && (
            <>
              <p>
                Deleting {preview.data.name} removes its record and results
                {preview.data.frees.length ? ` and frees ${preview.data.frees.map((f) => `${formatBytes(f.bytes)} (${f.what})`).join(", ")}` : ""}. This cannot be undone.
              </p>
              {preview.data.keeps.map((k) => (
                <p key={k.what}>
                  Stays: its {k.what} ({formatBytes(k.bytes)}), {k.why}.
                </p>
              ))}
              <Button variant="danger" className="self-start" disabled={del.isPending || del.isSuccess} onClick={() => del.mutate({ id: exp.id })}>
                {del.isPending ? "Deleting…" : "Delete this experiment"}
              </Button>
            </>
          )}
        </div>
      )}
      {error && <ErrorMessage>{errorText(error)}</ErrorMessage>}
    </div>
  );
}
