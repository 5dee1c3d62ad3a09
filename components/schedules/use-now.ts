"use client";
import { useEffect, useState } from "react";

/** The time now, moved on every `everyMs` (relative times such as "in 5 h" stay true while the page is open). */
export function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}
