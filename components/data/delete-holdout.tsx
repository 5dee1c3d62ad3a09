"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc";
import { DeleteBlockers } from "@/components/ui/delete-blockers";
import { DeleteOrKeep } from "@/components/ui/delete-or-keep";
import { errorText } from "@/components/ui/error-text";
import { ErrorMessage } from "@/components/ui/status-message";
import { QueryState } from "@/components/ui/query-state";
import type { HoldoutDeleteResult } from "@/server/holdouts/holdouts.schema";

/** Words for what a finished delete did, copies left on computers included. */
function deletedWords(r: HoldoutDeleteResult): string {
  const left = r.copiesLeft.map((c) => `${c.computer} keeps its copy (${c.reason})`).join("; ");
  return `Deleted the holdout “${r.name}”: its ${r.rows} rows go back to training.${left ? ` ${left}.` : ""}`;
}

/** What deleting a holdout gives back and what stands in the way, then the delete itself. */
export function DeleteHoldout({ holdoutId, onDone }: { holdoutId: string; onDone: (words: string | null) => void }) {
  const trpc = useTRPC();
  const preview = useQuery(trpc.holdouts.deletePreview.queryOptions({ id: holdoutId }));
  const del = useMutation(trpc.holdouts.delete.mutationOptions({ onSuccess: (r) => onDone(deletedWords(r)) }));
  const p = preview.data;
  return (
    <section aria-labelledby="delete-holdout-heading" className="flex flex-col gap-2 rounded-lg border border-red-200 bg-white p-4">
      <h4 id="delete-holdout-heading" className="text-sm font-semibold">
        Delete the holdout {p ? `“${p.name}”` : ""}?
      </h4>
      <QueryState query={preview} loading="Working out what the delete would change…" />
      {p && (
        <>
          <p className="text-sm">
            Its {p.rows} rows go back to training: experiments started afterwards no longer keep them out, and comparisons use the project’s other holdouts.{" "}
            {p.removesFile ? "Its file leaves the store of every computer." : "Its file stays in the store: a dataset or another project’s holdout holds the same bytes."}{" "}
            Evidence recorded before (a version’s exclusions, a promotion’s holdout win) stays as it was.
          </p>
          <DeleteBlockers blockers={p.blockers} />
          <DeleteOrKeep className="flex flex-wrap gap-2" label="Delete holdout" pending={del.isPending} disabled={!p.canDelete} onDelete={() => del.mutate({ id: holdoutId })} onKeep={() => onDone(null)} />
          {del.error && <ErrorMessage>{errorText(del.error)}</ErrorMessage>}
        </>
      )}
    </section>
  );
}
