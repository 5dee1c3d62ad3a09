"use client";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { formatBytes } from "@/contracts/vocabulary";
import { useTRPC } from "@/components/providers/trpc";
import { ErrorMessage } from "@/components/ui/status-message";
import { errorText } from "@/components/ui/error-text";
import type { Retention } from "./registry-types";
import { bytesFreedBy, versionLabel } from "./retention-words";
import { ConfirmButtons, ReasonField, Sheet, useRefreshModels } from "./sheet";

/**
 * Confirms removing versions from the registry (all or none): the sheet names each one,
 * what comes back of the export budget, and that the history stays; it asks for a reason.
 * A version an alias moved onto meanwhile is refused by the server, and nothing changes.
 */
export function RemoveSheet({ projectId, chosen, retention, onClose }: { projectId: string; chosen: string[]; retention: Retention; onClose: () => void }) {
  const trpc = useTRPC();
  // Decided on what the sheet opened with; a refetch behind it must not change the list.
  const [ids] = useState(chosen);
  const versions = retention.removable.filter((r) => ids.includes(r.versionId));
  const freed = bytesFreedBy(new Set(ids), retention.removable);
  const [reason, setReason] = useState("");
  const remove = useMutation(
    trpc.models.removeVersions.mutationOptions(useRefreshModels(onClose)),
  );
  const title = versions.length === 1 ? `Remove ${versionLabel(versions[0]!)}?` : `Remove ${versions.length} versions?`;
  return (
    <Sheet title={title} onClose={onClose}>
      <form
        className="flex flex-col gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          if (reason.trim()) remove.mutate({ projectId, versionIds: ids, reason: reason.trim() });
        }}
      >
        <ul className="list-disc pl-5" data-testid="remove-list">
          {versions.map((v) => (
            <li key={v.versionId} className="break-words">
              {versionLabel(v)}
            </li>
          ))}
        </ul>
        <p data-testid="remove-change">
          {versions.length === 1 ? "It" : "They"} can no longer be promoted or rolled back to; the selection history that names {versions.length === 1 ? "it" : "them"} stays.
          Frees {formatBytes(freed)} of the project’s registered exports ({formatBytes(retention.registeredBytes)} of {formatBytes(retention.budgetBytes)} now).
        </p>
        <ReasonField value={reason} onChange={setReason} />
        {remove.error && <ErrorMessage>Nothing was removed: {errorText(remove.error)}</ErrorMessage>}
        <ConfirmButtons
          label={remove.isPending ? "Removing…" : versions.length === 1 ? "Remove this version" : `Remove ${versions.length} versions`}
          disabled={!reason.trim() || remove.isPending || versions.length === 0}
          onClose={onClose}
        />
      </form>
    </Sheet>
  );
}
