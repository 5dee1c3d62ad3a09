/**
 * Byte counts for people, one rounding everywhere (pages, CLI, upload refusals): binary
 * units; below 10 of a unit one decimal, from 10 up whole numbers, and never a trailing
 * ".0" ("1 KiB", "1.5 KiB", "15 KiB", "2.4 GiB"). "unknown" when there is no number.
 */
const UNITS = ["bytes", "KiB", "MiB", "GiB", "TiB"] as const;

export function formatBytes(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return "unknown";
  let v = n;
  let i = 0;
  while (Math.abs(v) >= 1024 && i < UNITS.length - 1) {
    v /= 1024;
    i++;
  }
  if (i === 0) return `${n} bytes`;
  const rounded = Math.abs(v) >= 10 ? Math.round(v) : Math.round(v * 10) / 10;
  return `${rounded} ${UNITS[i]}`;
}
