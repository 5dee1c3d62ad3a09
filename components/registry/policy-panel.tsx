"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { ErrorMessage, Loading } from "@/components/ui/status-message";
import { errorText } from "@/components/ui/error-text";
import type { BakeView } from "@/server/policies/bake-view";
import { policySettings } from "@/server/policies/policies.schema";
import type { CandidateView } from "@/server/policies/policies.service";

const STATE_WORDS: Record<string, string> = {
  pending: "waits for you",
  approved: "approved, being promoted",
  switching: "selected; its deployment switches to it",
  baking: "selected; baking on its deployment",
  reverting: "going back to the version before",
  promoted: "promoted",
  reverted: "reverted by the bake",
  overridden: "bake ended by a change made by hand",
  rejected: "rejected",
  expired: "expired undecided",
  refused: "refused by the gates",
  failed: "not promoted",
};

const num = (v: number) => String(Number(v.toPrecision(4)));

/** The gates' evidence as a small table: what the owner approves on. */
function Evidence({ c }: { c: CandidateView }) {
  const e = c.evidence;
  const rows: [string, string][] = [["Gates", e.words]];
  if (e.kind === "same_contract") rows.push([e.metric, `version ${c.version} ${num(e.candidateValue)} against ${num(e.incumbentValue)} (gain ${num(e.improvement)}, at least ${e.minUsefulGain} needed)`]);
  if (e.kind === "holdout") {
    rows.push([`${e.metric} on “${e.holdout.name}”`, e.results.map((r) => `version ${r.version} ${num(r.value)}`).join(", ") + ` on ${e.rows} ${e.unit}`]);
    rows.push(["Difference", `${num(e.difference.estimate)} (${Math.round(e.difference.confidence * 100)}% interval ${num(e.difference.low)} to ${num(e.difference.high)})`]);
  }
  if (e.limits?.exportMib) rows.push(["Export", `${num(e.limits.exportMib.value)} MiB, at most ${e.limits.exportMib.limit} MiB`]);
  if (e.limits?.p95Ms) rows.push(["One-row p95", `${num(e.limits.p95Ms.value)} ms, at most ${e.limits.p95Ms.limit} ms (timed when it was tested)`]);
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm" data-testid="candidate-evidence">
      {rows.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="font-medium">{k}</dt>
          <dd className="break-words">{v}</dd>
        </div>
      ))}
    </dl>
  );
}

/** A limit's field: empty is no limit. */
const limitOf = (text: string): number | null => (text.trim() === "" ? null : Number(text));
const LIMIT_INPUT = "min-h-10 w-28 rounded-md border border-slate-400 bg-white px-2";

const pct = (x: number) => `${Number((x * 100).toFixed(1))}%`;

/** The promotion under way: the switch, the bake's progress against what it asks, or the revert. */
function Bake({ b }: { b: BakeView }) {
  const headingId = `bake-${b.candidateId}`;
  const title =
    b.state === "switching"
      ? `Version ${b.version} is selected; deployment “${b.deployment.name}” switches to it`
      : b.state === "baking"
        ? `Version ${b.version} bakes on deployment “${b.deployment.name}”`
        : `Version ${b.version} goes back to version ${b.incumbentVersion}`;
  const limits = `at most ${pct(b.limits.maxFailureRate)} failed${b.limits.maxP95Ms === null ? "" : `, p95 ≤ ${b.limits.maxP95Ms} ms`}, judged from ${b.limits.minRequests} requests (${b.limitsFrom === "monitor" ? "the deployment's monitor policy" : "the monitoring defaults"})`;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2 rounded-md border border-sky-300 bg-sky-50 p-3" data-testid="bake">
      <h4 id={headingId} className="font-medium">
        {title}
      </h4>
      {b.state !== "switching" && (
        <div className="flex flex-col gap-1 text-sm">
          <label className="flex flex-wrap items-center gap-2">
            <span>
              Requests: {b.requests.seen} of {b.requests.needed} ({b.failures} failed{b.p95Ms === null ? "" : `, p95 ≤ ${b.p95Ms} ms`})
            </span>
            <progress className="w-40" value={Math.min(b.requests.seen, b.requests.needed)} max={Math.max(1, b.requests.needed)} />
          </label>
          <label className="flex flex-wrap items-center gap-2">
            <span>
              Minutes: {b.minutes.elapsed} of {b.minutes.needed}
            </span>
            <progress className="w-40" value={Math.min(b.minutes.elapsed, b.minutes.needed)} max={Math.max(1, b.minutes.needed)} />
          </label>
        </div>
      )}
      <p className="text-sm">
        {b.reason ? `${b.reason}. ` : ""}Limits: {limits}. A breach puts the selected version and the deployment back on version {b.incumbentVersion}
        {b.deadline ? `; with too few requests by ${new Date(b.deadline).toLocaleString()} the policy ${b.lowTraffic === "keep" ? "keeps it" : "reverts it"}` : ""}.
      </p>
    </section>
  );
}

function Pending({ modelId, c }: { modelId: string; c: CandidateView }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const done = () => qc.invalidateQueries();
  const approve = useMutation(trpc.policies.approve.mutationOptions({ onSuccess: done }));
  const reject = useMutation(trpc.policies.reject.mutationOptions({ onSuccess: done }));
  const busy = approve.isPending || reject.isPending;
  const headingId = `candidate-${c.id}`;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2 rounded-md border border-amber-300 bg-amber-50 p-3" data-testid="pending-candidate">
      <h4 id={headingId} className="font-medium">
        Version {c.version} waits for your approval (until {new Date(c.expiresAt).toLocaleString()})
      </h4>
      <Evidence c={c} />
      <div className="flex flex-wrap gap-2">
        <Button disabled={busy} onClick={() => approve.mutate({ modelId, candidateId: c.id })}>
          Approve version {c.version}
        </Button>
        <Button variant="secondary" disabled={busy} onClick={() => reject.mutate({ modelId, candidateId: c.id })}>
          Reject
        </Button>
      </div>
      {(approve.error ?? reject.error) && <ErrorMessage>Not decided: {errorText((approve.error ?? reject.error)!)}</ErrorMessage>}
    </section>
  );
}


/** A model's promotion policy: its mode, what waits for the owner (one tap to decide), and what the gates decided lately. */
export function PolicyPanel({ projectId, modelId }: { projectId: string; modelId: string }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  // While a promotion is under way its requests count without an event: read again every few seconds.
  const policy = useQuery({ ...trpc.policies.get.queryOptions({ modelId }), refetchInterval: (q) => (q.state.data?.bake ? 5000 : false) });
  const [chosen, setMode] = useState<"approval" | "automatic" | null>(null);
  // The deployments a promotion reaches: this model's, following its "selected" alias.
  const deployments = useQuery(trpc.deployments.list.queryOptions({ projectId }));
  const following = (deployments.data ?? []).filter((d) => d.model.id === modelId && d.followsAlias === "selected" && d.state !== "stopped");
  const [chosenDeployment, setDeployment] = useState<string | null>(null);
  // Typed limits; null until edited (the policy's own then show).
  const [exportText, setExportText] = useState<string | null>(null);
  const [latencyText, setLatencyText] = useState<string | null>(null);
  const save = useMutation(trpc.policies.set.mutationOptions({ onSuccess: () => qc.invalidateQueries() }));
  if (policy.isPending) return <Loading label="Reading the promotion policy…" />;
  if (policy.error) return <ErrorMessage>Could not read the promotion policy: {errorText(policy.error)}</ErrorMessage>;
  const p = policy.data;
  const mode = chosen ?? p?.mode ?? "approval";
  const deploymentId = chosenDeployment ?? p?.deployment?.id ?? "";
  // A change of mode keeps the policy's other settings (else the server's defaults would replace them).
  const kept = p ? policySettings(p) : {};
  const exportLimit = exportText ?? (p?.maxExportMib != null ? String(p.maxExportMib) : "");
  const latencyLimit = latencyText ?? (p?.maxLatencyMs != null ? String(p.maxLatencyMs) : "");
  return (
    <div className="flex flex-col gap-3" data-testid="policy-panel">
      <p className="text-sm">
        {p
          ? p.mode === "approval"
            ? "Approval: each new version that passes the gates waits for you; you are notified."
            : `Automatic: a new version that passes the gates is promoted at once (at most ${p.maxPerDay} a day, ${p.cooldownMinutes} minutes apart).`
          : "No policy: new versions are promoted only by hand."}{" "}
        {p?.deployment &&
          `Deployment “${p.deployment.name}” follows each promotion and bakes it: it stands after ${p.bakeRequests} requests and ${p.bakeMinutes} minutes within the health limits, else both go back. `}
        The gates: the same evaluation as the version in use with a real gain, or a win on the project&apos;s holdout whose interval excludes a loss
        {p?.maxExportMib != null && `; an export of at most ${p.maxExportMib} MiB`}
        {p?.maxLatencyMs != null && `; single-row predictions at most ${p.maxLatencyMs} ms at the 95th percentile`}.
      </p>
      {p?.bake && <Bake b={p.bake} />}
      {p?.pending.map((c) => <Pending key={c.id} modelId={modelId} c={c} />)}
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <label className="flex items-center gap-2">
          <span>Policy</span>
          <select value={mode} onChange={(e) => setMode(e.target.value as "approval" | "automatic")} className="min-h-10 rounded-md border border-slate-400 bg-white px-2">
            <option value="approval">approval</option>
            <option value="automatic">automatic</option>
          </select>
        </label>
        {(following.length > 0 || p?.deployment) && (
          <label className="flex items-center gap-2">
            <span>Bake on</span>
            <select value={deploymentId} onChange={(e) => setDeployment(e.target.value)} className="min-h-10 max-w-full rounded-md border border-slate-400 bg-white px-2">
              <option value="">no deployment</option>
              {p?.deployment && !following.some((d) => d.id === p.deployment!.id) && <option value={p.deployment.id}>{p.deployment.name}</option>}
              {following.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <label className="flex items-center gap-2">
          <span>Largest export (MiB)</span>
          <input type="number" min={0} step="any" placeholder="no limit" value={exportLimit} onChange={(e) => setExportText(e.target.value)} className={LIMIT_INPUT} />
        </label>
        <label className="flex items-center gap-2">
          <span>Slowest one-row p95 (ms)</span>
          <input type="number" min={0} step="any" placeholder="no limit" value={latencyLimit} onChange={(e) => setLatencyText(e.target.value)} className={LIMIT_INPUT} />
        </label>
        <Button
          variant="secondary"
          disabled={save.isPending}
          onClick={() => save.mutate({ ...kept, modelId, mode, deploymentId: deploymentId || null, maxExportMib: limitOf(exportLimit), maxLatencyMs: limitOf(latencyLimit) })}
        >
          {p ? "Change the policy" : "Set the policy"}
        </Button>
      </div>
      {save.error && <ErrorMessage>Not saved: {errorText(save.error)}</ErrorMessage>}
      {p && p.candidates.some((c) => c.state !== "pending") && (
        <ul className="list-disc pl-5 text-sm" data-testid="candidate-history">
          {p.candidates
            .filter((c) => c.state !== "pending")
            .map((c) => (
              <li key={c.id} className="break-words">
                Version {c.version}: {STATE_WORDS[c.state] ?? c.state}
                {c.reason ? ` — ${c.reason}` : ""}
              </li>
            ))}
        </ul>
      )}
    </div>
  );
}
