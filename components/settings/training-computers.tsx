"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { errorText } from "@/components/ui/error-text";
import { EmptyState, ErrorMessage, Loading } from "@/components/ui/status-message";
import { AcceptedHostKeys } from "./accepted-host-keys";
import { ServerForm } from "./add-server-form";
import { ComputerCard } from "./computer-card";

/** Settings → Training computers: This computer and the SSH servers, and adding one. */
export function TrainingComputers() {
  const trpc = useTRPC();
  const targets = useQuery(trpc.targets.list.queryOptions());
  const [adding, setAdding] = useState(false);
  const [added, setAdded] = useState(false);
  return (
    <section aria-labelledby="computers-heading" className="flex flex-col gap-3">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h2 id="computers-heading" className="text-lg font-semibold">
            Training computers
          </h2>
          <p className="mt-1 text-sm text-slate-700">Jobs run under a supervisor on these computers and keep running if this server restarts.</p>
        </div>
        <Button
          onClick={() => {
            setAdding((a) => !a);
            setAdded(false);
          }}
          aria-expanded={adding}
          disabled={targets.isPending}
          className="sm:shrink-0"
        >
          Add server
        </Button>
      </div>
      {adding && (
        <ServerForm
          onDone={() => {
            setAdding(false);
            setAdded(true);
          }}
          onCancel={() => setAdding(false)}
        />
      )}
      {added && (
        <p role="status" className="text-sm text-green-800">
          Server added. Use Test access on its card to check the connection.
        </p>
      )}
      {targets.isPending && <Loading label="Loading training computers…" />}
      {targets.error && <ErrorMessage>Could not load the training computers: {errorText(targets.error)}</ErrorMessage>}
      {targets.data && targets.data.length === 0 && (
        <EmptyState title="No training computer yet">This computer is registered when the server has started; reload in a moment.</EmptyState>
      )}
      {targets.data?.map((t) => <ComputerCard key={t.id} targetId={t.id} />)}
      <AcceptedHostKeys />
    </section>
  );
}
