/** Display helpers for the Data page. */

export const formatCount = (n: number | null | undefined) => (n === null || n === undefined ? "—" : n.toLocaleString("en"));

export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}
