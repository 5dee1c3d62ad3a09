/** Small display helpers for the settings page. */

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return "never";
  const d = new Date(iso);
  return d.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** "3 min ago"-style age, for reachability and probe freshness. */
export function formatAge(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return "never";
  const s = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86400)} d ago`;
}

export const STATE_STYLE: Record<string, string> = {
  queued: "bg-slate-100 text-slate-800",
  admitted: "bg-blue-50 text-blue-900",
  running: "bg-blue-100 text-blue-900",
  succeeded: "bg-green-100 text-green-900",
  failed: "bg-red-100 text-red-900",
  cancelled: "bg-slate-200 text-slate-800",
  timed_out: "bg-amber-100 text-amber-900",
  unknown: "bg-amber-100 text-amber-900",
};
