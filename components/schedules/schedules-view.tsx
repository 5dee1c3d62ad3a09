"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { QueryState } from "@/components/ui/query-state";
import { EmptyState } from "@/components/ui/status-message";
import { ScheduleCard } from "./schedule-card";
import { ScheduleCreateForm } from "./schedule-create-form";

/**
 * The project's schedules, each a card, and the New schedule form. The list is read again
 * on every schedule.changed event; while a run is being admitted it is also read every
 * 2 s, because an admitting run's reason ("checking that … is not still being written")
 * changes without an event until its step does.
 */
export function SchedulesView({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const list = useQuery({
    ...trpc.schedules.list.queryOptions({ projectId }),
    refetchInterval: (q) => (q.state.data?.some((s) => s.runs.some((r) => r.outcome === "admitting")) ? 2_000 : 60_000),
  });
  const [creating, setCreating] = useState(false);
  const empty = list.data?.length === 0;
  return (
    <section aria-labelledby="schedules-heading" className="flex min-w-0 flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="schedules-heading" className="text-lg font-semibold">
          Schedules
        </h2>
        {!creating && list.data && !empty && <Button onClick={() => setCreating(true)}>New schedule</Button>}
      </div>
      <QueryState query={list} loading="Loading schedules…" failure="Could not load the schedules" />
      {empty && !creating && (
        <EmptyState title="No schedules yet">
          <p>A schedule retrains a model from a file on one of your computers at the times you set, for example every 6 hours or daily at 06:00.</p>
          <p className="mt-1">When the file has not changed since the last run, the tick is a no-op and costs no training; each run that trains is an experiment you can compare and register.</p>
          <Button className="mt-3" onClick={() => setCreating(true)}>
            New schedule
          </Button>
        </EmptyState>
      )}
      {creating && <ScheduleCreateForm projectId={projectId} onDone={() => setCreating(false)} />}
      {list.data?.map((s) => <ScheduleCard key={s.id} schedule={s} />)}
    </section>
  );
}
