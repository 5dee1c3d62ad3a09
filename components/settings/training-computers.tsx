"use client";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc";
import { errorText } from "@/components/ui/error-text";
import { EmptyState, ErrorMessage, Loading } from "@/components/ui/status-message";
import { ComputerCard } from "./computer-card";

/** Settings → Training computers. */
export function TrainingComputers() {
  const trpc = useTRPC();
  const targets = useQuery(trpc.targets.list.queryOptions());
  return (
    <section aria-labelledby="computers-heading" className="flex flex-col gap-3">
      <div>
        <h2 id="computers-heading" className="text-lg font-semibold">
          Training computers
        </h2>
        <p className="mt-1 text-sm text-slate-700">Jobs run under a supervisor on these computers and keep running if this server restarts.</p>
      </div>
      {targets.isPending && <Loading label="Loading training computers…" />}
      {targets.error && <ErrorMessage>Could not load the training computers: {errorText(targets.error)}</ErrorMessage>}
      {targets.data && targets.data.length === 0 && (
        <EmptyState title="No training computer yet">This computer is registered when the server has started; reload in a moment.</EmptyState>
      )}
      {targets.data?.map((t) => <ComputerCard key={t.id} targetId={t.id} />)}
    </section>
  );
}
