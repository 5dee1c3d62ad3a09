"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { errorText } from "@/components/ui/error-text";
import { formatBytes } from "@/contracts/vocabulary";
import { ErrorMessage } from "@/components/ui/status-message";
import { QueryState } from "@/components/ui/query-state";
import { Busy } from "./busy";
import { probeLine } from "./access-report";

/**
 * Set up in two steps: what would be copied where, then Install on confirmation, because
 * it writes into a folder on someone's server.
 */
export function SetupPanel({ targetId, targetName, onInstalled, onClose }: { targetId: string; targetName: string; onInstalled: () => void; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const plan = useQuery({ ...trpc.targets.setupPlan.queryOptions({ id: targetId }), staleTime: Infinity });
  const setup = useMutation(
    trpc.targets.setup.mutationOptions({
      onSuccess: onInstalled,
      onSettled: () => void queryClient.invalidateQueries({ queryKey: trpc.targets.pathKey() }),
    }),
  );
  const headingId = `setup-${targetId}`;
  const p = plan.data;
  const done = setup.data;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2 rounded-md border border-slate-200 p-3 text-sm">
      <h4 id={headingId} className="font-semibold text-slate-900">
        Set up {targetName}
      </h4>
      <QueryState query={plan} loading="Working out what to install…" failure="Could not plan the set up" />
      {p && !done && (
        <>
          <p>
            Installs worker {p.version}: {p.files} files, {formatBytes(p.bytes)}, into{" "}
            <code className="break-all">
              {p.host}:{p.destination}
            </code>
            . An earlier install there is replaced only once every file has arrived and been checked; the worker’s home and its settings are kept.
          </p>
          {setup.isPending ? (
            <Busy label={`Installing on ${targetName}`} />
          ) : (
            <div className="flex flex-col gap-2 sm:flex-row">
              <Button onClick={() => setup.mutate({ id: targetId })}>Install</Button>
              <Button variant="secondary" onClick={onClose}>
                Cancel
              </Button>
            </div>
          )}
        </>
      )}
      {setup.error && <ErrorMessage>{errorText(setup.error)}</ErrorMessage>}
      {done && (
        <>
          <p role="status" className="text-green-800">
            Installed worker {done.install.version} on {targetName}: {done.install.files} files, {formatBytes(done.install.bytes)} in{" "}
            <code className="break-all">{done.install.destination}</code>, checked by reading them back (checksum{" "}
            <code className="break-all">{done.install.checksum.slice(0, 12)}…</code>).
          </p>
          <p>Its worker answered: {probeLine(done.probe)}.</p>
          <Button variant="secondary" className="self-start" onClick={onClose}>
            Close
          </Button>
        </>
      )}
    </section>
  );
}
