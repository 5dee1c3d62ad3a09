"use client";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import type { Deployment, Release } from "./deployment-types";
import { isRollbackTarget } from "./release-words";
import { SwitchConfirm } from "./switch-panel";

const KIND_WORDS: Record<Release["kind"], string> = { create: "created", switch: "switch", rollback: "rollback", alias: "alias moved" };

/**
 * A deployment's releases, newest first (the history is append-only): number, version,
 * how it came (created, switch, rollback, the followed alias moving), why, who and when.
 * An earlier release of another version than the current one can be rolled back to,
 * behind the same confirmation as the card's Roll back….
 */
export function ReleasesPanel({ d, releases }: { d: Deployment; releases: Release[] }) {
  const [open, setOpen] = useState<number | null>(null);
  const serving = d.state === "ready" || d.state === "idle";
  if (releases.length === 0) return <p className="text-sm text-slate-700">No releases yet.</p>;
  return (
    <ol aria-label="Releases, newest first" className="flex flex-col divide-y divide-slate-200 text-sm">
      {releases.map((r) => (
        <li key={r.id} className="flex min-w-0 flex-col gap-1 py-2" data-testid="release-row">
          <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
            <span className="font-medium">Release {r.number}</span>
            <span>version {r.version}</span>
            <span className="rounded bg-slate-100 px-2 py-0.5">{KIND_WORDS[r.kind]}</span>
            {r.number === d.release?.number && <span className="font-medium text-green-800">serving now</span>}
            <time dateTime={new Date(r.createdAt).toISOString()} className="text-slate-700">
              {new Date(r.createdAt).toLocaleString()}
            </time>
            <span className="break-all text-slate-700">by {r.actor.name}</span>
          </div>
          <p className="break-words text-slate-700">{r.why}</p>
          {serving && isRollbackTarget(r, d) && (
            <Button variant="secondary" className="self-start" onClick={() => setOpen(r.number)}>
              Roll back to release {r.number}
            </Button>
          )}
          {open === r.number && <SwitchConfirm d={d} change={{ kind: "rollback", toRelease: r.number }} onClose={() => setOpen(null)} />}
        </li>
      ))}
    </ol>
  );
}
