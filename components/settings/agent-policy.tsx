"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { errorText } from "@/components/ui/error-text";
import { ErrorMessage } from "@/components/ui/status-message";
import { QueryState } from "@/components/ui/query-state";

/** Settings → Agents: whether agent tools (trainyard mcp) may promote model versions. Off by default; only the owner can change it. */
export function AgentPolicySettings() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const policy = useQuery(trpc.settings.agents.queryOptions());
  const [saved, setSaved] = useState<boolean | null>(null);
  const update = useMutation(
    trpc.settings.updateAgents.mutationOptions({
      onSuccess: (v) => {
        setSaved(v.values.mayPromote);
        queryClient.setQueryData(trpc.settings.agents.queryKey(), v);
      },
    }),
  );
  const current = policy.data;
  return (
    <section aria-labelledby="agent-policy-heading" className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="agent-policy-heading" className="text-lg font-semibold">
        Agents
      </h2>
      <QueryState query={policy} loading="Loading the agents' policy…" failure="Could not load the agents' policy" />
      {current && (
        <>
          <label className="flex min-h-10 items-start gap-2 text-sm">
            <input
              type="checkbox"
              className="mt-1 h-4 w-4"
              aria-describedby="agent-promote-help"
              checked={current.values.mayPromote}
              disabled={update.isPending}
              onChange={(e) => update.mutate({ revision: current.revision, values: { mayPromote: e.target.checked } })}
            />
            <span className="font-medium">Agents may promote model versions</span>
          </label>
          <p id="agent-promote-help" className="text-xs text-slate-700">
            Lets the promote_version tool of <code>trainyard mcp</code> move a model&apos;s selected alias, only when the promotion gate allows it on the evidence alone (a regression still needs you). Off by default. API tokens cannot change this.
          </p>
          {saved !== null && saved === current.values.mayPromote && (
            <p role="status" className="text-sm text-green-800">
              Saved: agents {saved ? "may" : "may not"} promote.
            </p>
          )}
          {update.error && <ErrorMessage>Not saved: {errorText(update.error)}</ErrorMessage>}
        </>
      )}
    </section>
  );
}
