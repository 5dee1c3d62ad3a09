"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { errorText } from "@/components/ui/error-text";
import { ErrorMessage, Loading } from "@/components/ui/status-message";
import { ComputerJobs } from "./computer-jobs";
import { formatAge, formatTime } from "./format";
import { ProbeSummary } from "./probe-summary";

/** One training computer: reachability, what its worker reports, and its jobs. */
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
    <article aria-labelledby={headingId} className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h3 id={headingId} className="text-base font-semibold text-slate-900">
            {t.name}
          </h3>
          <p className="text-sm text-slate-700">
            {t.kind === "local" ? "The computer this server runs on." : `Reached over ${t.kind}.`}{" "}
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
      {t.unreachableSince && t.lastError && <ErrorMessage>{t.lastError}</ErrorMessage>}
      {t.outdatedWorker && <ErrorMessage>{t.outdatedWorker}</ErrorMessage>}
      {probe.error && <ErrorMessage>{errorText(probe.error)}</ErrorMessage>}
      {t.probe ? (
        <ProbeSummary probe={t.probe} />
      ) : (
        <p className="text-sm text-slate-700">Not checked yet. Use “Check again” to ask its worker what it has.</p>
      )}
      <ComputerJobs targetId={t.id} targetName={t.name} />
    </article>
  );
}
