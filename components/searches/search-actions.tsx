"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { ErrorMessage } from "@/components/ui/status-message";
import { errorText } from "@/components/ui/error-text";
import type { SearchView } from "@/server/searches/search-views";

const isConflict = (err: unknown) => (err as { data?: { code?: string } } | null)?.data?.code === "CONFLICT";

/**
 * Pause (no new trial; running ones finish), Resume, Stop (cancels the running trials,
 * then scores the best so far once on test). Each sends the revision the page showed, so a
 * search that moved meanwhile answers CONFLICT instead of doing something else. Stop asks
 * once more: a stray tap on a phone would end the search for good.
 */
export function SearchActions({ search }: { search: SearchView }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.searches.pathKey() });
  const options = { onSettled: () => void refresh() };
  const pause = useMutation(trpc.searches.pause.mutationOptions(options));
  const resume = useMutation(trpc.searches.resume.mutationOptions(options));
  const stop = useMutation(trpc.searches.stop.mutationOptions(options));
  const [asking, setAsking] = useState(false);
  const busy = pause.isPending || resume.isPending || stop.isPending;
  const error = pause.error ?? resume.error ?? stop.error;
  const at = { id: search.id, revision: search.revision };
  const reset = () => [pause, resume, stop].forEach((m) => m.reset());
  const canStop = search.status === "running" || search.status === "paused";
  if (!canStop && !error) return null;
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap gap-2">
        {search.status === "running" && (
          <Button variant="secondary" disabled={busy} onClick={() => (reset(), pause.mutate(at))}>
            {pause.isPending ? "Pausing…" : "Pause"}
          </Button>
        )}
        {search.status === "paused" && (
          <Button disabled={busy} onClick={() => (reset(), resume.mutate(at))}>
            {resume.isPending ? "Resuming…" : "Resume"}
          </Button>
        )}
        {canStop && (
          <Button variant="danger" disabled={busy || asking} onClick={() => setAsking(true)} aria-expanded={asking} aria-controls="search-stop-confirm">
            {stop.isPending ? "Stopping…" : "Stop search"}
          </Button>
        )}
      </div>
      {asking && canStop && (
        <div id="search-stop-confirm" role="group" aria-label="Confirm stop" className="flex flex-col gap-2 rounded-md border border-slate-300 bg-slate-50 p-3 text-sm">
          <p>Stop this search now? Running trials are cancelled, no new trial starts, and the best trial so far (or the baseline) is scored once on the test rows. It cannot be resumed.</p>
          <div className="flex flex-wrap gap-2">
            <Button
              variant="danger"
              disabled={busy}
              onClick={() => {
                setAsking(false);
                reset();
                stop.mutate(at);
              }}
            >
              Yes, stop the search
            </Button>
            <Button variant="secondary" onClick={() => setAsking(false)}>
              Keep searching
            </Button>
          </div>
        </div>
      )}
      {error &&
        (isConflict(error) ? (
          <div role="alert" className="flex flex-col gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="search-conflict">
            <p>The search changed since this page read it, so nothing was done. Reload to see it as it is now, then choose again.</p>
            <Button
              variant="secondary"
              className="self-start"
              onClick={() => {
                reset();
                void refresh();
              }}
            >
              Reload
            </Button>
          </div>
        ) : (
          <ErrorMessage>{errorText(error)}</ErrorMessage>
        ))}
    </div>
  );
}
