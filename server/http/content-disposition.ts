/**
 * `Content-Disposition: attachment` for any file name: an ASCII fallback in `filename`
 * and the exact name in RFC 5987 `filename*` (UTF-8, percent-encoded). A header value
 * with a non-Latin-1 character would make Node throw after the work was already done.
 */
export function attachmentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\;]/g, "_") || "download";
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
