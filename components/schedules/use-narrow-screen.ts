"use client";
import { useSyncExternalStore } from "react";

/** Below Tailwind's `sm` breakpoint (640 px): a phone, where one stray tap must not act at once. */
const QUERY = "(max-width: 639.98px)";

const subscribe = (onChange: () => void) => {
  const m = window.matchMedia(QUERY);
  m.addEventListener("change", onChange);
  return () => m.removeEventListener("change", onChange);
};

export function useNarrowScreen(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(QUERY).matches, () => false);
}
