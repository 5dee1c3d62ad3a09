/** The HTTP answer for a verified export archive: streamed, with its SHA-256 in `X-Checksum-SHA256`. */
import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import { attachmentDisposition } from "@/server/http/content-disposition";
import type { ExportDownload } from "./exports.service";

export function exportResponse(d: ExportDownload): Response {
  const body = Readable.toWeb(createReadStream(d.path)) as ReadableStream<Uint8Array>;
  return new Response(body, {
    headers: {
      "content-type": "application/gzip",
      "content-length": String(d.bytes),
      "content-disposition": attachmentDisposition(d.fileName),
      "x-checksum-sha256": d.sha256,
      "cache-control": "no-store",
    },
  });
}
