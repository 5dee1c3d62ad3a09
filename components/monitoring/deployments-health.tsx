"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/components/providers/trpc";
import type { DeploymentHealth } from "@/contracts/monitoring/monitoring";
import { HEALTH_WORDS } from "./monitor-words";

const TONE: Partial<Record<DeploymentHealth, string>> = { breaching: "text-red-800", drifting: "text-amber-900", failed: "text-red-800" };

/**
 * Each deployment of the project and the health of the release it serves, in a word, at
 * the top of the project's first screen (a phone's glance); nothing when it has none.
 */
export function DeploymentsHealth({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const health = useQuery(trpc.monitors.projectHealth.queryOptions({ projectId }, { refetchInterval: 30_000 }));
  const rows = health.data ?? [];
  if (!rows.length) return null;
  return (
    <section aria-labelledby="deployments-health-heading" className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4" data-testid="deployments-health">
      <h3 id="deployments-health-heading" className="text-base font-semibold">
        How the deployments are doing
      </h3>
      <ul className="flex flex-col gap-1 text-sm">
        {rows.map((r) => (
          <li key={r.deploymentId} className="flex flex-wrap gap-x-2">
            <Link className="break-all text-blue-800 underline" href={`/projects/${projectId}/ml/deployments/${r.deploymentId}`}>
              {r.deploymentName}
            </Link>
            <span className={TONE[r.health] ?? "text-slate-800"} data-testid="deployment-health">
              {r.deploymentState === "ready" || r.deploymentState === "switching" || r.deploymentState === "idle" ? HEALTH_WORDS[r.health] : r.deploymentState}
              {r.health === "drifting" ? ` (${r.alertingColumns.join(", ")})` : ""}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
