"use client";
import { useEffect, useState } from "react";
import type { SetupProgress } from "@/server/datasets/datasets.schema";
import { formatElapsed } from "./format";

/** First use of the data tools on a computer: their environment is being built. */
export function SetupProgressView({ setup }: { setup: SetupProgress }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  const elapsed = setup.startedAt ? formatElapsed(now - new Date(setup.startedAt).getTime()) : null;
  return (
    <div className="flex flex-col gap-2 rounded-md border border-amber-200 bg-amber-50 p-3" data-testid="setup-progress">
      <p className="text-sm" role="status">
        Setting up the data tools on this computer (first use only): {setup.state}
        {elapsed ? `, ${elapsed}` : ""}.
      </p>
      <progress className="h-2 w-full" aria-label="Setting up the data tools" />
      {setup.logTail && (
        <pre className="max-h-40 overflow-auto whitespace-pre-wrap break-all rounded bg-white p-2 text-xs text-slate-800" tabIndex={0} aria-label="Setup log">
          {setup.logTail.split("\n").slice(-8).join("\n")}
        </pre>
      )}
    </div>
  );
}
