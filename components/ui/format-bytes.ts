/** Byte counts for people: "15 KiB", "2.4 GiB"; "unknown" when there is no number. */
export function formatBytes(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return "unknown";
  const units = ["bytes", "KiB", "MiB", "GiB", "TiB"];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${n} bytes` : `${v >= 10 ? Math.round(v) : v.toFixed(1)} ${units[i]}`;
}
