"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { errorText } from "@/components/ui/error-text";
import type { Deployment, LatencySummary, Release } from "./deployment-types";
import { latencyWords } from "./latency-words";
import { idleWords, releaseWords, rollbackTarget } from "./release-words";
import { SwitchConfirm } from "./switch-panel";

/**
 * One deployment: state, release, mode and computer, requests and latency of its current
 * release, and Stop / Resume / Switch / Roll back behind a confirmation that says what
 * changes. `href` links its name to the deployment's page (the list); the page itself
 * passes none, and passes `releases`, so Roll back… shows only when there is an earlier
 * release of another version (the list knows only that release 1 has none).
 */
export function DeploymentCard({ d, latency, href, releases }: { d: Deployment; latency: LatencySummary | undefined; href?: string; releases?: Release[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [confirm, setConfirm] = useState<"stop" | "resume" | "switch" | "rollback" | null>(null);
  const done = { onSuccess: () => (setConfirm(null), void queryClient.invalidateQueries({ queryKey: trpc.deployments.pathKey() })) };
  const stop = useMutation(trpc.deployments.stop.mutationOptions(done));
  const resume = useMutation(trpc.deployments.resume.mutationOptions(done));
  const action = confirm === "stop" ? stop : resume;
  const release = releaseWords(d);
  const serving = d.state === "ready" || d.state === "idle";
  const canRollBack = serving && (releases ? rollbackTarget(releases, d) !== null : (d.release?.number ?? 0) > 1);
  const idle = idleWords(d.idleUnloadMinutes);
  return (
    <article className="flex min-w-0 flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4" data-testid="deployment-card" aria-label={`Deployment ${d.name}`}>
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <h3 className="break-all text-base font-semibold">
          {href ? (
            <Link href={href} className="text-blue-800 underline">
              {d.name}
            </Link>
          ) : (
            d.name
          )}
        </h3>
        <span className="rounded bg-slate-100 px-2 py-0.5 text-sm" data-testid="deployment-state">
          {d.unreachable ? "unreachable" : d.state}
        </span>
        <span className="text-sm text-slate-700">
          {d.model.name}, {release}, {d.followsAlias ? `follows “${d.followsAlias}”` : "pinned"} · {d.mode.replace("_", "-")} on {d.computer.name}
        </span>
      </div>
      {d.unreachable && (
        <p role="status" className="rounded-md bg-amber-50 p-2 text-sm text-amber-900" data-testid="deployment-unreachable">
          Unreachable since {new Date(d.unreachable.since).toLocaleTimeString()}: {d.unreachable.reason}. Its routes answer 503 until {d.computer.name} answers again; a serving
          process that survived then serves again without a restart.
        </p>
      )}
      {d.reason && <p className="text-sm text-slate-700">{d.reason}</p>}
      {d.memory && (
        <p className="text-sm text-slate-700" data-testid="deployment-memory">
          Memory budget: {d.memory.gb} GB{d.memory.isDefault ? " (the default)" : ""}
        </p>
      )}
      {idle && d.state !== "idle" && (
        <p className="text-sm text-slate-700" data-testid="deployment-idle">
          {idle}
        </p>
      )}
      <p className="text-sm" data-testid="deployment-latency">
        {latencyWords(latency, d.release?.number ?? null)}
      </p>
      <div className="flex flex-wrap gap-2">
        {(serving || d.state === "loading" || d.state === "failed") && (
          <Button variant="secondary" onClick={() => setConfirm("stop")}>
            Stop…
          </Button>
        )}
        {(d.state === "stopped" || d.state === "failed") && (
          <Button variant="secondary" onClick={() => setConfirm("resume")}>
            Resume…
          </Button>
        )}
        {serving && (
          <Button variant="secondary" onClick={() => setConfirm("switch")}>
            Switch…
          </Button>
        )}
        {canRollBack && (
          <Button variant="secondary" onClick={() => setConfirm("rollback")}>
            Roll back…
          </Button>
        )}
      </div>
      {(confirm === "switch" || confirm === "rollback") && <SwitchConfirm key={confirm} d={d} change={confirm === "switch" ? { kind: "switch" } : { kind: "rollback", toRelease: null }} onClose={() => setConfirm(null)} />}
      {(confirm === "stop" || confirm === "resume") && (
        <div role="alertdialog" aria-label={`${confirm} ${d.name}`} className="flex flex-col gap-2 rounded-md border border-slate-300 p-3 text-sm">
          <p>
            {confirm === "stop"
              ? `Stop "${d.name}": its routes answer 503 until it is resumed; its keys and releases stay.`
              : `Resume "${d.name}" on ${release}: it loads again and then answers requests.`}
          </p>
          {action.error && <p className="text-red-800">{errorText(action.error)}</p>}
          <div className="flex flex-wrap gap-2">
            <Button variant={confirm === "stop" ? "danger" : "primary"} disabled={action.isPending} onClick={() => action.mutate({ deploymentId: d.id, expectedRevision: d.revision })}>
              {confirm === "stop" ? "Stop it" : "Resume it"}
            </Button>
            <Button variant="secondary" onClick={() => setConfirm(null)}>
              Cancel
            </Button>
          </div>
        </div>
      )}
    </article>
  );
}
