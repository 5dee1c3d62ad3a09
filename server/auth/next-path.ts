/**
 * Where the sign-in page may send the browser afterwards: only a path of this origin.
 * `//evil.example` and `/\evil.example` are other hosts to a browser (which also drops tabs
 * and newlines, so `/\t/evil` becomes `//evil`), and `/%5Cevil` is `/\evil` once decoded,
 * so all of these, anything with a scheme, and anything with a control character fall
 * back to "/". Pure: used by the login page on the server.
 */
const FALLBACK = "/";
const CONTROL = /[\u0000-\u001f\u007f]/;

function pathShaped(s: string): boolean {
  return s.startsWith("/") && !s.startsWith("//") && !s.includes("\\") && !CONTROL.test(s);
}

export function safeNextPath(raw: unknown): string {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > 2048) return FALLBACK;
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return FALLBACK;
  }
  if (!pathShaped(raw) || !pathShaped(decoded)) return FALLBACK;
  // Last line of defence: the URL parser must agree that it stays on this origin.
  const base = "http://trainyard.invalid";
  return new URL(raw, base).origin === base ? raw : FALLBACK;
}
