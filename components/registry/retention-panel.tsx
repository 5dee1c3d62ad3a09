"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { formatBytes } from "@/contracts/vocabulary";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { QueryState } from "@/components/ui/query-state";
import { RemoveSheet } from "./remove-sheet";
import { bytesFreedBy, versionLabel } from "./retention-words";

/**
 * Retention: the project's registered exports against its budget (a setting), the
 * versions that could be removed (selected or aliased ones never are) and, when over the
 * budget, the oldest ones that would bring it back within it, ticked. Removing goes
 * through the confirmation sheet.
 */
export function RetentionPanel({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const preview = useQuery(trpc.models.retentionPreview.queryOptions({ projectId }));
  const [ticked, setTicked] = useState<Set<string> | null>(null);
  const [confirming, setConfirming] = useState<string[] | null>(null);
  const p = preview.data;
  // Until the person ticks something, the plan to fit the budget is the proposal.
  const chosen = ticked ?? new Set(p?.toFitBudget.versionIds ?? []);
  const over = p ? p.registeredBytes > p.budgetBytes : false;
  const toggle = (id: string) => {
    const next = new Set(chosen);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setTicked(next);
  };
  // No model yet: nothing is registered, and the Models view already says what to do.
  if (p && p.kept.length + p.removable.length === 0) return null;
  return (
    <section aria-labelledby="retention-heading" className="flex min-w-0 flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4" data-testid="retention">
      <h3 id="retention-heading" className="text-base font-semibold">
        Storage and retention
      </h3>
      <QueryState query={preview} loading="Loading what the registry holds…" failure="Could not load the retention preview" />
      {p && (
        <>
          <p className="text-sm" data-testid="retention-usage">
            Registered exports: {formatBytes(p.registeredBytes)} of {formatBytes(p.budgetBytes)} (
            <Link className="text-blue-800 underline" href="/settings#registry-settings-heading">
              the budget is a setting
            </Link>
            ).
          </p>
          {over && (
            <p role="status" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="retention-over">
              Over the budget: registering another export is refused.{" "}
              {p.toFitBudget.fits
                ? `Removing the ${p.toFitBudget.versionIds.length} oldest version(s) ticked below frees ${formatBytes(p.toFitBudget.bytesFreed)} and brings it within.`
                : `Even removing every version that can go (${formatBytes(p.toFitBudget.bytesFreed)}) is not enough: raise the budget or move an alias off an old version.`}
            </p>
          )}
          {p.removable.length === 0 ? (
            <p className="text-sm text-slate-700">Nothing can be removed: every version is selected or aliased.</p>
          ) : (
            <fieldset className="flex flex-col gap-1 text-sm">
              <legend className="font-medium">Could be removed (selected and aliased versions never are)</legend>
              {p.removable.map((r) => (
                <label key={r.versionId} className="flex items-start gap-2 break-words">
                  <input type="checkbox" className="mt-1 h-4 w-4 shrink-0" checked={chosen.has(r.versionId)} onChange={() => toggle(r.versionId)} />
                  <span>
                    {versionLabel(r)} · export {formatBytes(r.exportBytes)}
                    {r.sharedWithKept ? " (shared with a kept version: frees nothing)" : ""}
                  </span>
                </label>
              ))}
              <Button variant="secondary" className="mt-2 self-start" disabled={chosen.size === 0} onClick={() => setConfirming([...chosen])}>
                {`Review removing ${chosen.size} version(s) (frees ${formatBytes(bytesFreedBy(chosen, p.removable))})…`}
              </Button>
            </fieldset>
          )}
        </>
      )}
      {confirming && p && (
        <RemoveSheet
          projectId={projectId}
          chosen={confirming}
          retention={p}
          onClose={() => {
            setConfirming(null);
            setTicked(null);
          }}
        />
      )}
    </section>
  );
}
