"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { ErrorMessage, Loading } from "@/components/ui/status-message";
import { errorText } from "@/components/ui/error-text";
import type { CandidateView } from "@/server/policies/policies.service";

const STATE_WORDS: Record<string, string> = {
  pending: "waits for you",
  approved: "approved, being promoted",
  promoted: "promoted",
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
    rows.push([`${e.metric} on “${e.holdout.name}”`, e.results.map((r) => `version ${r.version} ${num(r.value)}`).join(", ") + ` on ${e.rows} rows`]);
    rows.push(["Difference", `${num(e.difference.estimate)} (${Math.round(e.difference.confidence * 100)}% interval ${num(e.difference.low)} to ${num(e.difference.high)})`]);
  }
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
export function PolicyPanel({ modelId }: { modelId: string }) {
  const trpc = useTRPC();
  const qc = useQueryClient();
  const policy = useQuery(trpc.policies.get.queryOptions({ modelId }));
  const [chosen, setMode] = useState<"approval" | "automatic" | null>(null);
  const save = useMutation(trpc.policies.set.mutationOptions({ onSuccess: () => qc.invalidateQueries() }));
  if (policy.isPending) return <Loading label="Reading the promotion policy…" />;
  if (policy.error) return <ErrorMessage>Could not read the promotion policy: {errorText(policy.error)}</ErrorMessage>;
  const p = policy.data;
  const mode = chosen ?? p?.mode ?? "approval";
  return (
    <div className="flex flex-col gap-3" data-testid="policy-panel">
      <p className="text-sm">
        {p
          ? p.mode === "approval"
            ? "Approval: each new version that passes the gates waits for you; you are notified."
            : `Automatic: a new version that passes the gates is promoted at once (at most ${p.maxPerDay} a day, ${p.cooldownMinutes} minutes apart).`
          : "No policy: new versions are promoted only by hand."}{" "}
        The gates: the same evaluation as the version in use with a real gain, or a win on the project&apos;s holdout whose interval excludes a loss.
      </p>
      {p?.pending.map((c) => <Pending key={c.id} modelId={modelId} c={c} />)}
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <label className="flex items-center gap-2">
          <span>Policy</span>
          <select value={mode} onChange={(e) => setMode(e.target.value as "approval" | "automatic")} className="min-h-10 rounded-md border border-slate-400 bg-white px-2">
            <option value="approval">approval</option>
            <option value="automatic">automatic</option>
          </select>
        </label>
        <Button variant="secondary" disabled={save.isPending} onClick={() => save.mutate({ modelId, mode, deploymentId: p?.deployment?.id ?? null })}>
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
