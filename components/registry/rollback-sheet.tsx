"use client";
import { DEFAULT_REASONS } from "@/contracts/registry/default-reasons";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { ErrorMessage, Loading } from "@/components/ui/status-message";
import { errorText } from "@/components/ui/error-text";
import { formatMetric } from "@/components/experiment/format";
import { refusalOf } from "./decision-words";
import { ConfirmButtons, ReasonField, Sheet, useRefreshModels } from "./sheet";

/**
 * Roll the selection back from the version in use to an earlier selected one: the sheet
 * shows both scores and whether they are comparable, asks for a reason, and sends the
 * revision the page showed, so a stale page gets a CONFLICT instead of moving anything.
 */
export function RollbackSheet(props: { modelId: string; from: number; to: number; revision: number; onClose: () => void }) {
  // Decided on what the page showed when the sheet opened; a later refetch must not change it.
  const [{ modelId, from, to, revision, onClose }] = useState(props);
  const trpc = useTRPC();
  const cmp = useQuery(trpc.models.compare.queryOptions({ modelId, a: from, b: to }));
  const [reason, setReason] = useState("");
  const rollback = useMutation(
    trpc.models.rollback.mutationOptions(useRefreshModels(onClose)),
  );
  const refusal = refusalOf(rollback.error);
  return (
    <Sheet title={`Roll back to version ${to}?`} onClose={onClose}>
      <form
        className="flex flex-col gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          rollback.mutate({ modelId, to, reason: reason.trim() || undefined, expectedRevision: revision });
        }}
      >
        {cmp.isPending && <Loading label="Comparing the two versions…" />}
        {cmp.error && <ErrorMessage>Could not compare: {errorText(cmp.error)}</ErrorMessage>}
        {cmp.data && (
          <>
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1" data-testid="rollback-change">
              <dt className="font-medium">In use now</dt>
              <dd>
                version {from} · {cmp.data.a.metricLabel} {formatMetric(cmp.data.a.primaryValue)}
              </dd>
              <dt className="font-medium">Would become</dt>
              <dd>
                version {to} · {cmp.data.b.metricLabel} {formatMetric(cmp.data.b.primaryValue)}
              </dd>
            </dl>
            <p>{cmp.data.comparability.reason}</p>
          </>
        )}
        <ReasonField value={reason} onChange={setReason} optionalAs={DEFAULT_REASONS.rollback} />
        {refusal && (
          <ErrorMessage>
            {refusal.message}
            {refusal.code === "stale_revision" && " Nothing was changed; close this and look at the model again."}
          </ErrorMessage>
        )}
        <ConfirmButtons
          label={rollback.isPending ? "Rolling back…" : `Roll back to version ${to}`}
          disabled={rollback.isPending || refusal?.code === "stale_revision"}
          onClose={onClose}
        />
      </form>
    </Sheet>
  );
}
