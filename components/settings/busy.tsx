"use client";
import { useEffect, useState } from "react";

/**
 * Work the server does in one call (Test access, Set up) reports no steps, so this shows
 * what is happening and for how long instead of a percentage.
 */
export function Busy({ label }: { label: string }) {
  const [started] = useState(() => Date.now());
  const [now, setNow] = useState(started);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <div role="status" className="flex flex-col gap-1 text-sm text-slate-700">
      <span>
        {label} ({Math.round((now - started) / 1000)} s)
      </span>
      <progress aria-label={label} className="h-2 w-full max-w-xs" />
    </div>
  );
}
