"use client";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { DeleteBlockers } from "@/components/ui/delete-blockers";
import { DeleteOrKeep } from "@/components/ui/delete-or-keep";
import { errorText } from "@/components/ui/error-text";
import { ErrorMessage } from "@/components/ui/status-message";
import { QueryState } from "@/components/ui/query-state";
import { formatBytes } from "@/contracts/vocabulary";

/** "sales.csv in project “Churn”": a dataset of another project, often of the same file name. */
const sharedLabel = (s: { name: string; projectName: string | null }) => (s.projectName ? `${s.name} in project “${s.projectName}”` : `${s.name} (another project)`);

/** What deleting frees, what blocks it, then the deletion itself. */
export function DeleteDataset({ datasetId, onDone }: { datasetId: string; onDone: () => void }) {
  const trpc = useTRPC();
  const preview = useQuery(trpc.datasets.deletePreview.queryOptions({ id: datasetId }));
  // Copies on servers that did not answer stay there: say so before closing.
  const [left, setLeft] = useState<{ computer: string; reason: string }[] | null>(null);
  const del = useMutation(trpc.datasets.delete.mutationOptions({ onSuccess: (r) => (r.copiesLeft.length ? setLeft(r.copiesLeft) : onDone()) }));
  const p = preview.data;
  if (left) {
    return (
      <section aria-labelledby="delete-heading" className="flex flex-col gap-2 rounded-lg border border-amber-300 bg-white p-4">
        <h3 id="delete-heading" className="text-base font-semibold">
          Deleted, but copies remain on a server
        </h3>
        <ul className="list-disc pl-5 text-sm" role="status">
          {left.map((c) => (
            <li key={c.computer}>
              {c.computer} did not answer, so its copy stays in its worker directory (home/store): {c.reason}
            </li>
          ))}
        </ul>
        <Button variant="secondary" className="self-start" onClick={onDone}>
          Close
        </Button>
      </section>
    );
  }
  return (
    <section aria-labelledby="delete-heading" className="flex flex-col gap-2 rounded-lg border border-red-200 bg-white p-4">
      <h3 id="delete-heading" className="text-base font-semibold">
        Delete {p?.name ?? "dataset"}?
      </h3>
      <QueryState query={preview} loading="Working out what would be freed…" />
      {p && (
        <>
          <p className="text-sm">
            {p.removesSnapshot
              ? `This frees ${formatBytes(p.freedBytes)} in Trainyard’s store. Your original file, if it was registered by path, is not touched.`
              : `The data stays in the store because ${p.sharedWith.map(sharedLabel).join(", ")} also ${p.sharedWith.length === 1 ? "uses" : "use"} the same bytes; nothing is freed.`}
          </p>
          {p.serverCopies.length > 0 && <p className="text-sm">Its copies on {p.serverCopies.join(", ")} are deleted too.</p>}
          {p.usedBy.length > 0 && <p className="text-sm">Experiments that used it keep their results: {p.usedBy.map((e) => e.name).join(", ")}.</p>}
          <DeleteBlockers blockers={p.blockers} />
          <DeleteOrKeep
            className="flex flex-wrap gap-2"
            label="Delete dataset"
            pending={del.isPending}
            disabled={!p.canDelete}
            onDelete={() => del.mutate({ id: datasetId })}
            onKeep={onDone}
          />
          {del.error && <ErrorMessage>{errorText(del.error)}</ErrorMessage>}
        </>
      )}
    </section>
  );
}
