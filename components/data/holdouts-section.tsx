"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { errorText } from "@/components/ui/error-text";
import { ErrorMessage, Loading } from "@/components/ui/status-message";
import { DeleteHoldout } from "./delete-holdout";
import { ReserveHoldout } from "./reserve-holdout";
import { ReserveNewest } from "./reserve-newest";

/** Project → Data → Holdouts: rows no training of the project sees, to compare versions on (docs/holdouts.md). */
export function HoldoutsSection({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const list = useQuery(trpc.holdouts.list.queryOptions({ projectId }));
  const [deleting, setDeleting] = useState<string | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  const changed = (words: string | null) => {
    setDeleting(null);
    setSaid(words);
    void list.refetch();
  };
  return (
    <section aria-labelledby="holdouts-heading" className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <h3 id="holdouts-heading" className="text-base font-semibold">
        Holdouts
      </h3>
      <p className="text-sm text-slate-700">
        A holdout is never offered as data: every training started after it keeps its rows out, so versions trained on different data can be compared on rows none of them learnt from (Models → Compare on the holdout).
      </p>
      {list.isPending && <Loading label="Reading the project’s holdouts…" />}
      {list.error && <ErrorMessage>Could not read the holdouts: {errorText(list.error)}</ErrorMessage>}
      {list.data && list.data.length === 0 && <p className="text-sm">This project has no holdout.</p>}
      {list.data && list.data.length > 0 && (
        <ul aria-label="Reserved holdouts" className="flex flex-col divide-y divide-slate-200">
          {list.data.map((h) => (
            <li key={h.id} data-testid="holdout-row" className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
              <span className="min-w-0 break-words">
                <span className="font-medium">{h.name}</span> — {h.rows.toLocaleString("en")} {h.kind === "examples" ? "examples (prompts kept out of fine-tunes)" : "rows"} from {h.fileName}, reserved {new Date(h.createdAt).toLocaleDateString("en")}
              </span>
              <Button variant="secondary" onClick={() => {
                  setSaid(null);
                  setDeleting(h.id);
                }} aria-label={`Delete the holdout ${h.name}`}>
                Delete
              </Button>
            </li>
          ))}
        </ul>
      )}
      {deleting && <DeleteHoldout key={deleting} holdoutId={deleting} onDone={changed} />}
      {said && (
        <p role="status" className="text-sm" data-testid="holdout-said">
          {said}
        </p>
      )}
      <ReserveHoldout projectId={projectId} onReserved={(words) => changed(words)} />
      <ReserveNewest projectId={projectId} onReserved={(words) => changed(words)} />
    </section>
  );
}
