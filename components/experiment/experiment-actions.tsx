"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { ErrorMessage } from "@/components/ui/status-message";
import { errorText } from "@/components/ui/error-text";
import type { ExperimentDetailView } from "@/server/experiments/experiment-views";
import { controllerJobLifecycle, experimentLifecycle } from "@/contracts/lifecycles";
import { formatBytes } from "@/contracts/vocabulary";

const newOpId = () => (typeof crypto !== "undefined" && "randomUUID" in crypto ? crypto.randomUUID() : `op-${Date.now()}-${Math.random().toString(36).slice(2)}`);

/**
 * Cancel (while running), Run again (new operation id), Delete (with what it frees; only
 * when stopped). Cancel and Run again ask once more inline: on a phone a stray tap on
 * either would throw away or start minutes of training.
 */
export function ExperimentActions({ exp }: { exp: ExperimentDetailView }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const terminal = experimentLifecycle.isTerminal(exp.status);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.experiments.pathKey() });
  const cancel = useMutation(trpc.experiments.cancel.mutationOptions({ onSuccess: () => void refresh() }));
  // One id per visit to this page: a double click on "Run again" starts one experiment.
  const [rerunOpId] = useState(newOpId);
  const rerun = useMutation(trpc.experiments.rerun.mutationOptions({ onSuccess: (e) => router.push(`/projects/${e.projectId}/ml/experiments/${e.id}`) }));
  const [confirming, setConfirming] = useState(false);
  const [asking, setAsking] = useState<"cancel" | "rerun" | null>(null);
  const preview = useQuery({ ...trpc.experiments.deletePreview.queryOptions({ id: exp.id }), enabled: confirming });
  const del = useMutation(
    trpc.experiments.delete.mutationOptions({
      onSuccess: () => {
        void refresh();
        router.push(`/projects/${exp.projectId}/ml/experiments`);
      },
    }),
  );
  const unreachable = exp.steps.find((s) => s.unreachableSince && !controllerJobLifecycle.isTerminal(s.state ?? ""));
  const cancelling = exp.cancelRequested && !terminal;
  const error = cancel.error ?? rerun.error ?? del.error ?? preview.error;
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap gap-2">
        {!terminal && (
          <Button variant="danger" disabled={cancelling || cancel.isPending || asking === "cancel"} onClick={() => setAsking("cancel")} aria-expanded={asking === "cancel"} aria-controls="confirm-panel">
            {cancelling ? (unreachable ? "Cancellation pending" : "Cancelling…") : "Cancel training"}
          </Button>
        )}
        {terminal && (
          <Button variant="secondary" disabled={rerun.isPending || rerun.isSuccess || asking === "rerun"} onClick={() => setAsking("rerun")} aria-expanded={asking === "rerun"} aria-controls="confirm-panel">
            {rerun.isPending ? "Starting…" : "Run again"}
          </Button>
        )}
        <Button variant="secondary" onClick={() => setConfirming((c) => !c)} aria-expanded={confirming} aria-controls="delete-panel">
          Delete…
        </Button>
      </div>
      {asking && !(asking === "cancel" && terminal) && (
        <div id="confirm-panel" role="group" aria-label={asking === "cancel" ? "Confirm cancel" : "Confirm run again"} className="flex flex-col gap-2 rounded-md border border-slate-300 bg-slate-50 p-3 text-sm">
          <p>
            {asking === "cancel"
              ? "Stop this training now? The steps that are running are stopped and nothing they made is kept."
              : `Start a new run with the same data and settings? It uses this computer for up to ${Math.round(exp.budgetSeconds / 60)} minutes.`}
          </p>
          <div className="flex flex-wrap gap-2">
            {asking === "cancel" ? (
              <Button
                variant="danger"
                disabled={cancel.isPending}
                onClick={() => {
                  setAsking(null);
                  cancel.mutate({ id: exp.id });
                }}
              >
                Yes, cancel training
              </Button>
            ) : (
              <Button disabled={rerun.isPending || rerun.isSuccess} onClick={() => rerun.mutate({ id: exp.id, opId: rerunOpId })}>
                {rerun.isPending ? "Starting…" : "Yes, run again"}
              </Button>
            )}
            <Button variant="secondary" onClick={() => setAsking(null)}>
              {asking === "cancel" ? "Keep training" : "Not now"}
            </Button>
          </div>
        </div>
      )}
      {cancelling && unreachable && (
        <p role="status" className="text-sm text-amber-900">
          Cancellation pending: {unreachable.label} runs on a computer that has not answered since {new Date(unreachable.unreachableSince!).toLocaleString()}. It stops when the computer answers again.
        </p>
      )}
      {confirming && (
        <div id="delete-panel" className="flex flex-col gap-2 rounded-md border border-red-200 bg-red-50 p-3 text-sm">
          {preview.isPending && <p role="status">Working out what deleting frees…</p>}
          {preview.data && !preview.data.canDelete && <p>{preview.data.name} cannot be deleted now: {preview.data.reason}</p>}
          {preview.data && preview.data.canDelete && (
            <>
              <p>
                Deleting {preview.data.name} removes its record and results
                {preview.data.frees.length
                  ? ` and frees ${preview.data.frees.map((f) => `${formatBytes(f.bytes)} (${f.what})`).join(", ")}`
                  : "; it frees no stored files"}
                . This cannot be undone.
              </p>
              {preview.data.keeps.map((k) => (
                <p key={k.what}>
                  Stays: its {k.what} ({formatBytes(k.bytes)}), {k.why}.
                </p>
              ))}
              <Button variant="danger" className="self-start" disabled={del.isPending} onClick={() => del.mutate({ id: exp.id })}>
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
