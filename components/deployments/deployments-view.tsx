"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useState, useSyncExternalStore } from "react";
import type { AppRouter } from "@/server/api/root";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { QueryState } from "@/components/ui/query-state";
import { curlExample } from "./curl-example";
import { KeysPanel } from "./keys-panel";

const noSubscribe = () => () => {};

type Deployment = inferRouterOutputs<AppRouter>["deployments"]["list"][number];

/**
 * The project's deployments: state, release, mode and computer of each, Stop / Resume
 * behind a confirmation that says what changes, its keys, and a curl example with this
 * server's real URL. Deploying starts from `trainyard deploy` (docs/deployments.md).
 */
export function DeploymentsView({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const list = useQuery(trpc.deployments.list.queryOptions({ projectId }, { refetchInterval: 3000 }));
  return (
    <section aria-labelledby="deployments-heading" className="flex min-w-0 flex-col gap-3">
      <h2 id="deployments-heading" className="text-lg font-semibold">
        Deployments
      </h2>
      <QueryState query={list} loading="Loading deployments…" failure="Could not load the deployments" />
      {list.data?.length === 0 && (
        <p className="text-sm text-slate-700">
          Nothing is deployed yet. Deploy a registered version with <code>trainyard deploy MODEL:VERSION</code>.
        </p>
      )}
      {list.data?.map((d) => <DeploymentCard key={d.id} d={d} />)}
    </section>
  );
}

function DeploymentCard({ d }: { d: Deployment }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [confirm, setConfirm] = useState<"stop" | "resume" | null>(null);
  const [key, setKey] = useState<string | null>(null);
  // The server's origin as the browser reached it; empty while rendering on the server.
  const origin = useSyncExternalStore(noSubscribe, () => window.location.origin, () => "");
  const done = { onSuccess: () => (setConfirm(null), void queryClient.invalidateQueries({ queryKey: trpc.deployments.pathKey() })) };
  const stop = useMutation(trpc.deployments.stop.mutationOptions(done));
  const resume = useMutation(trpc.deployments.resume.mutationOptions(done));
  const action = confirm === "stop" ? stop : resume;
  const release = d.release ? `release ${d.release.number} (version ${d.release.version})` : "no release";
  return (
    <article className="flex min-w-0 flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4" data-testid="deployment-card">
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <h3 className="text-base font-semibold">{d.name}</h3>
        <span className="rounded bg-slate-100 px-2 py-0.5 text-sm" data-testid="deployment-state">
          {d.state}
        </span>
        <span className="text-sm text-slate-700">
          {d.model.name}, {release}, {d.followsAlias ? `follows @${d.followsAlias}` : "pinned"} · {d.mode.replace("_", "-")} on {d.computer.name}
        </span>
      </div>
      {d.reason && <p className="text-sm text-slate-700">{d.reason}</p>}
      <div className="flex flex-wrap gap-2">
        {(d.state === "ready" || d.state === "loading" || d.state === "failed") && (
          <Button variant="secondary" onClick={() => setConfirm("stop")}>
            Stop…
          </Button>
        )}
        {(d.state === "stopped" || d.state === "failed") && (
          <Button variant="secondary" onClick={() => setConfirm("resume")}>
            Resume…
          </Button>
        )}
      </div>
      {confirm && (
        <div role="alertdialog" aria-label={`${confirm} ${d.name}`} className="flex flex-col gap-2 rounded-md border border-slate-300 p-3 text-sm">
          <p>
            {confirm === "stop"
              ? `Stop "${d.name}": its routes answer 503 until it is resumed; its keys and releases stay.`
              : `Resume "${d.name}" on ${release}: it loads again and then answers requests.`}
          </p>
          {action.error && <p className="text-red-800">{action.error.message}</p>}
          <div className="flex gap-2">
            <Button variant={confirm === "stop" ? "danger" : "primary"} disabled={action.isPending} onClick={() => action.mutate({ deploymentId: d.id, expectedRevision: d.revision })}>
              {confirm === "stop" ? "Stop it" : "Resume it"}
            </Button>
            <Button variant="secondary" onClick={() => setConfirm(null)}>
              Cancel
            </Button>
          </div>
        </div>
      )}
      <KeysPanel deploymentId={d.id} onKey={setKey} />
      <pre className="overflow-x-auto rounded-md bg-slate-900 p-3 text-xs text-slate-100" data-testid="curl-example">
        {curlExample(origin, d.routes.predict, key, { column: "value" })}
      </pre>
    </article>
  );
}
