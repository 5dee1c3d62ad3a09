"use client";
import { DEFAULT_REASONS } from "@/contracts/registry/default-reasons";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { ErrorMessage, Loading } from "@/components/ui/status-message";
import { errorText } from "@/components/ui/error-text";
import { formatMetric } from "@/components/experiment/format";
import { acknowledgementWords, canPromote, refusalOf } from "./decision-words";
import type { Decision, Preview } from "./registry-types";
import { ReasonField, Sheet } from "./sheet";

/**
 * Promote one version: the sheet says what changes (selected version → this one, both
 * scores, the gate's verdict), asks for a reason and, when the gate needs it, the
 * acknowledgement. It sends the revision it showed; a CONFLICT (someone moved the model
 * meanwhile) replaces what it shows with the refreshed comparison and asks again.
 */
export function PromoteSheet({ modelId, version, onClose }: { modelId: string; version: number; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const preview = useQuery({ ...trpc.models.promotionPreview.queryOptions({ modelId, version }), refetchOnMount: "always", refetchOnWindowFocus: false, staleTime: Infinity });
  const [reason, setReason] = useState("");
  const [accepted, setAccepted] = useState(false);
  // After a CONFLICT: the refreshed basis the person now decides on.
  const [refreshed, setRefreshed] = useState<{ revision: number; decision: Decision; message: string } | null>(null);
  const promote = useMutation(
    trpc.models.promote.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.models.pathKey() });
        onClose();
      },
      onError: (err) => {
        const r = refusalOf(err);
        void queryClient.invalidateQueries({ queryKey: trpc.models.show.queryKey({ modelId }) });
        if (r?.decision && r.revision !== null) {
          setRefreshed({ revision: r.revision, decision: r.decision, message: r.message });
          setAccepted(false);
        }
      },
    }),
  );
  // What the person decides on is the first answer: a refetch (any server event
  // invalidates every query) must not change it under their finger; only a CONFLICT does.
  // Only an answer fetched since the sheet opened: the cache may hold one from before the
  // last move (a sheet reopened after a promotion or a rollback elsewhere).
  const [frozen, setFrozen] = useState<Preview | null>(null);
  if (preview.data && preview.isFetchedAfterMount && !frozen) setFrozen(preview.data);
  const p = frozen;
  const decision = refreshed?.decision ?? p?.decision;
  const revision = refreshed?.revision ?? p?.model.revision;
  const ack = decision && p ? acknowledgementWords(decision, version, p.current?.number ?? null) : null;
  const ready = decision && canPromote(decision) && (ack === null || accepted);
  return (
    <Sheet title={`Promote version ${version}?`} onClose={onClose}>
      {!frozen && !preview.error && <Loading label="Comparing with the selected version…" />}
      {preview.error && <ErrorMessage>Could not compare: {errorText(preview.error)}</ErrorMessage>}
      {p && decision && revision !== undefined && (
        <form
          className="flex flex-col gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            if (ready) promote.mutate({ modelId, version, reason: reason.trim() || undefined, acceptRegression: ack !== null && accepted, expectedRevision: revision });
          }}
        >
          {refreshed && (
            <p role="alert" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900" data-testid="promote-conflict">
              {refreshed.message} Nothing was changed; below is the comparison as it stands now.
            </p>
          )}
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1" data-testid="promote-change">
            <dt className="font-medium">In use now</dt>
            <dd>{p.current ? `version ${p.current.number} · ${p.current.metricLabel} ${formatMetric(p.current.primaryValue)}` : "nothing selected yet"}</dd>
            <dt className="font-medium">Would become</dt>
            <dd>
              version {p.candidate.number} · {p.candidate.metricLabel} {formatMetric(p.candidate.primaryValue)}
            </dd>
          </dl>
          <p data-testid="promote-decision" data-verdict={decision.verdict}>
            {decision.reason}
          </p>
          {decision.verdict === "needs_acknowledgement" && decision.comparability.comparable === false && decision.comparability.differences.length > 0 && (
            <ul className="list-disc pl-5">
              {decision.comparability.differences.map((d) => (
                <li key={d.field} className="break-words">
                  {d.words}: {String(d.b)} (in use) vs {String(d.a)} (this version)
                </li>
              ))}
            </ul>
          )}
          {!canPromote(decision) && decision.verdict !== "already_selected" && <ErrorMessage>Version {version} cannot be promoted: {decision.reason}</ErrorMessage>}
          {canPromote(decision) && (
            <>
              <ReasonField value={reason} onChange={setReason} optionalAs={DEFAULT_REASONS.promote} />
              {ack && (
                <label className="flex items-start gap-2">
                  <input type="checkbox" checked={accepted} onChange={(e) => setAccepted(e.target.checked)} className="mt-1 h-4 w-4" />
                  <span>{ack}</span>
                </label>
              )}
            </>
          )}
          {promote.error && !refreshed && <ErrorMessage>{errorText(promote.error)}</ErrorMessage>}
          <div className="flex flex-wrap gap-2">
            {canPromote(decision) && (
              <Button type="submit" disabled={!ready || promote.isPending}>
                {promote.isPending ? "Promoting…" : `Promote version ${version}`}
              </Button>
            )}
            <Button variant="secondary" onClick={onClose}>
              {decision.verdict === "already_selected" ? "Close" : "Not now"}
            </Button>
          </div>
        </form>
      )}
    </Sheet>
  );
}
