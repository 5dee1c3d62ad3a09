"use client";
/**
 * A fine-tuning experiment's page: finetune.get, polled every few seconds while it runs
 * (server events also refresh it; the poll covers a dropped event stream). The last
 * known state stays on screen when the server does not answer.
 */
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/components/providers/trpc";
import { ErrorMessage, Loading } from "@/components/ui/status-message";
import { errorText } from "@/components/ui/error-text";
import { experimentLifecycle } from "@/contracts/lifecycles";
import { RegisterVersion } from "@/components/experiment/register-version";
import { FineTuneActions } from "./finetune-actions";
import { FineTuneLayout } from "./finetune-layout";
import { TryIt } from "./try-it";

export function FineTunePage({ projectId, experimentId }: { projectId: string; experimentId: string }) {
  const trpc = useTRPC();
  const q = useQuery({
    ...trpc.finetune.get.queryOptions({ id: experimentId }),
    refetchInterval: (query) => (query.state.data && !experimentLifecycle.isTerminal(query.state.data.experiment.status) ? 3000 : false),
    retry: 3,
  });
  if (q.isPending) return <Loading label="Loading the experiment…" />;
  if (!q.data)
    return (
      <ErrorMessage>
        Could not load the experiment: {errorText(q.error)} <Link href={`/projects/${projectId}/ml/experiments`}>Back to experiments</Link>
      </ErrorMessage>
    );
  const view = q.data;
  return (
    <>
      {q.error && (
        <p role="status" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          Showing the last known state: the server did not answer ({errorText(q.error)}). It refreshes when the connection is back.
        </p>
      )}
      <FineTuneLayout view={view} actions={<FineTuneActions view={view} />} tryIt={view.experiment.status === "succeeded" && view.receipt ? <TryIt experimentId={view.experiment.id} /> : null} />
      {/* A verified adapter registers as a model version like a tabular model (server/registry). */}
      {view.experiment.status === "succeeded" && view.receipt && view.export && <RegisterVersion projectId={projectId} experimentId={view.experiment.id} />}
    </>
  );
}
