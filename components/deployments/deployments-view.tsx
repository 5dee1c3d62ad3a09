"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/components/providers/trpc";
import { QueryState } from "@/components/ui/query-state";
import { DeploymentCard } from "./deployment-card";

/**
 * The project's deployments, each with its state, release, mode, computer, requests and
 * latency, and Stop / Resume; its name opens its page (keys, examples, test console).
 * Deploying starts from a version's Deploy button on Models, or `trainyard deploy`.
 */
export function DeploymentsView({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  // Moves arrive on the live event stream (deployment.changed); the slow poll is for a link gone quiet.
  const list = useQuery(trpc.deployments.list.queryOptions({ projectId }, { refetchInterval: 30_000 }));
  const latency = useQuery(trpc.deployments.latency.queryOptions({ projectId }, { refetchInterval: 10_000 }));
  return (
    <section aria-labelledby="deployments-heading" className="flex min-w-0 flex-col gap-3">
      <h2 id="deployments-heading" className="text-lg font-semibold">
        Deployments
      </h2>
      <QueryState query={list} loading="Loading deployments…" failure="Could not load the deployments" />
      {list.data?.length === 0 && (
        <p className="text-sm text-slate-700">
          Nothing is deployed yet. Deploy a registered version with its Deploy button on{" "}
          <Link href={`/projects/${projectId}/ml/models`} className="text-blue-800 underline">
            Models
          </Link>
          , or with <code>trainyard deploy MODEL:VERSION</code>.
        </p>
      )}
      {latency.error && <p className="text-sm text-slate-700">Requests and latency could not be read just now.</p>}
      {list.data?.map((d) => <DeploymentCard key={d.id} d={d} latency={latency.data?.[d.id]} href={`/projects/${projectId}/ml/deployments/${d.id}`} />)}
    </section>
  );
}
