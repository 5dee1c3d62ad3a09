/**
 * GET /api/experiments/<id>/export — the verified export archive, with its SHA-256 in
 * `X-Checksum-SHA256`. Verification runs on every request; a mismatch is refused (409)
 * with a message saying what differs, and nothing is sent.
 */
import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import { errorResponse } from "@/server/http/error-response";
import { attachmentDisposition } from "@/server/http/content-disposition";
import { verifiedExportDownload } from "@/server/exports/exports.service";
import { guarded } from "@/server/http/route-auth";

export const dynamic = "force-dynamic";

async function get(_req: Request, ctx: { params: Promise<{ id: string }> }) {
  const { id } = await ctx.params;
  try {
    const d = await verifiedExportDownload(id);
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
  } catch (err) {
    return errorResponse(err, `Downloading the export of experiment ${id}`);
  }
}

export const GET = guarded("read", get);
