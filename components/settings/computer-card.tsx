"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { errorText } from "@/components/ui/error-text";
import { ErrorMessage, Loading } from "@/components/ui/status-message";
import { ComputerJobs } from "./computer-jobs";
import { ConnectionSummary } from "./connection-summary";
import { formatAge, formatTime } from "./format";
import { ProbeSummary } from "./probe-summary";
import { ServerActions } from "./server-actions";

/** One training computer: reachability, how it is reached, what its worker reports, and its jobs. */
export function ComputerCard({ targetId }: { targetId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const target = useQuery(trpc.targets.get.queryOptions({ id: targetId }));
  const probe = useMutation(
    trpc.targets.probe.mutationOptions({
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.targets.get.queryKey({ id: targetId }) }),
    }),
  );
  if (target.isPending) return <Loading label="Loading computer…" />;
  if (target.error) return <ErrorMessage>Could not load this computer: {errorText(target.error)}</ErrorMessage>;
  const t = target.data;
  const headingId = `computer-${t.id}`;
  return (
    <article aria-labelledby={headingId} className="flex flex-col gap-4 [overflow-wrap:anywhere] rounded-lg border border-slate-200 bg-white p-4">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h3 id={headingId} className="flex flex-wrap items-center gap-2 text-base font-semibold text-slate-900">
            {t.name}
            {!t.enabled && <span className="rounded bg-slate-200 px-2 py-0.5 text-xs font-medium text-slate-800">Disabled</span>}
          </h3>
          <p className="text-sm text-slate-700">
            {t.description}{" "}
            {t.unreachableSince ? (
              <span className="font-medium text-amber-900">Unreachable since {formatTime(t.unreachableSince)}.</span>
            ) : (
              <span>Last checked {formatAge(t.probedAt)}.</span>
            )}
          </p>
        </div>
        <Button variant="secondary" onClick={() => probe.mutate({ id: t.id })} disabled={probe.isPending} aria-label={`Check ${t.name} again`}>
          {probe.isPending ? "Checking…" : "Check again"}
        </Button>
      </div>
      {t.connection && <ConnectionSummary connection={t.connection} />}
      {t.sameWorkerAs.length > 0 && (
        <p className="text-sm text-slate-800">
          Same worker as {t.sameWorkerAs.join(", ")}: they share its CPUs, memory and GPUs.
        </p>
      )}
      {/* A refused host key is explained, with its fingerprint, by the host key panel. */}
      {t.unreachableSince && t.lastError && !t.hostKeyProblem && <ErrorMessage>{t.lastError}</ErrorMessage>}
      {t.setUpOverSsh && <ServerActions target={t} />}
      {t.outdatedWorker && <ErrorMessage>{t.outdatedWorker}</ErrorMessage>}
      {probe.error && <ErrorMessage>{errorText(probe.error)}</ErrorMessage>}
      {t.probe ? (
        <ProbeSummary probe={t.probe} />
      ) : (
        <p className="text-sm text-slate-700">{t.notCheckedHint}</p>
      )}
      <ComputerJobs targetId={t.id} targetName={t.name} />
    </article>
  );
}
