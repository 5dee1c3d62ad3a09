/**
 * Where a request's value falls among a reference's bins (contracts/recipes/data.ts
 * ZReferenceColumn): the request path turns each row into bin indices and keeps only the
 * counts, so no value of a request is ever stored. Values compare as canonical text, the
 * form the data.reference job writes its categories in: text as it is, true/false, a
 * number as String() writes it.
 */
import { z } from "zod";
import type { Reference, ReferenceColumn } from "@/contracts/recipes/data";

type Cell = string | number | boolean | null | undefined;

export const canonicalText = (v: string | number | boolean): string => (typeof v === "string" ? v : String(v));

/** The bin of one value: numeric bins by edge, then missing; categories, then other, then missing. */
export function binOf(column: ReferenceColumn, value: Cell): number {
  const missing = column.counts.length - 1;
  if (value === null || value === undefined) return missing;
  if (column.kind === "numeric") {
    const v = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : Number.NaN;
    if (Number.isNaN(v)) return missing;
    // The first edge at or above v (np.searchsorted side="left", as the reference was binned).
    let lo = 0;
    let hi = column.edges.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (column.edges[mid]! < v) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
  const at = categoryIndex(column).get(canonicalText(value));
  return at ?? column.categories.length;
}

const INDEXES = new WeakMap<ReferenceColumn, Map<string, number>>();
function categoryIndex(column: Extract<ReferenceColumn, { kind: "categorical" }>): Map<string, number> {
  let index = INDEXES.get(column);
  if (!index) INDEXES.set(column, (index = new Map(column.categories.map((c, i) => [c, i]))));
  return index;
}

/** Column → counts per reference bin (MonitorWindow.histograms). */
export const ZHistograms = z.record(z.string(), z.array(z.int().nonnegative()));
export type Histograms = z.infer<typeof ZHistograms>;

export const emptyHistograms = (reference: Reference): Histograms => Object.fromEntries(reference.columns.map((c) => [c.name, c.counts.map(() => 0)]));

/** Adds each row's bins to `into` (same columns as the reference). */
export function countRows(reference: Reference, rows: readonly Record<string, Cell>[], into: Histograms): void {
  for (const column of reference.columns) {
    const counts = (into[column.name] ??= column.counts.map(() => 0));
    for (const row of rows) counts[binOf(column, row[column.name])]! += 1;
  }
}

export function addHistograms(a: Histograms, b: Histograms): Histograms {
  const out: Histograms = { ...a };
  for (const [name, counts] of Object.entries(b)) {
    const had = out[name];
    out[name] = had && had.length === counts.length ? had.map((x, i) => x + counts[i]!) : [...counts];
  }
  return out;
}

/** Share of a window's values in the other bin (categories the reference never had) and in missing. */
export function unseenAndMissing(column: ReferenceColumn, window: readonly number[]): { unseenShare: number; missingShare: number } {
  const total = window.reduce((a, b) => a + b, 0);
  if (total === 0) return { unseenShare: 0, missingShare: 0 };
  const other = column.kind === "categorical" ? window[column.categories.length]! : 0;
  return { unseenShare: other / total, missingShare: window[window.length - 1]! / total };
}
