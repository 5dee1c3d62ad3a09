/** Display helpers for the experiment pages (pure; unit-tested). */

export function formatDuration(totalSeconds: number | null | undefined): string {
  if (totalSeconds === null || totalSeconds === undefined || !Number.isFinite(totalSeconds)) return "—";
  const s = Math.max(0, Math.round(totalSeconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (h) return `${h} h ${m} min`;
  if (m) return `${m} min ${sec} s`;
  return `${sec} s`;
}


/** A metric value with enough digits to compare two of them. */
export function formatMetric(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return "—";
  const a = Math.abs(v);
  if (a !== 0 && (a < 0.001 || a >= 1e6)) return v.toExponential(3);
  return v.toFixed(a >= 100 ? 1 : 4);
}

// results-panel.tsx reads it from here; its home is the shared vocabulary.
export { directionWords } from "@/contracts/vocabulary";

/** 0–100, from steps done; never 100 until the experiment succeeded. */
export function progressPercent(done: number, total: number, status: string): number {
  if (status === "succeeded") return 100;
  if (!total) return 0;
  return Math.min(99, Math.round((done / total) * 100));
}

export interface StepUsage {
  wallSeconds?: number;
  cpuSeconds?: number;
  peakRssBytes?: number;
}

/** Sums per-step usage; peak memory is the largest step's peak, not a sum. */
export function totalUsage(usages: (StepUsage | null | undefined)[]): Required<StepUsage> {
  let wall = 0;
  let cpu = 0;
  let peak = 0;
  for (const u of usages) {
    if (!u) continue;
    wall += u.wallSeconds ?? 0;
    cpu += u.cpuSeconds ?? 0;
    peak = Math.max(peak, u.peakRssBytes ?? 0);
  }
  return { wallSeconds: wall, cpuSeconds: cpu, peakRssBytes: peak };
}

/** Lines of a log that contain the query (case-insensitive), keeping at most `max` of the last ones. */
export function filterLog(text: string, query: string, max = 2000): string[] {
  const lines = text.split("\n");
  const q = query.trim().toLowerCase();
  const hit = q ? lines.filter((l) => l.toLowerCase().includes(q)) : lines;
  return hit.slice(-max);
}
