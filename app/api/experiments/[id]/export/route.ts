/**
 * GET /api/experiments/<id>/export — the verified export archive, with its SHA-256 in
 * `X-Checksum-SHA256`. Verification runs on every request; a mismatch is refused (409)
 * with a message saying what differs, and nothing is sent.
 */
import { errorResponse } from "@/server/http/error-response";
import { exportResponse } from "@/server/exports/export-response";
import { verifiedExportDownload } from "@/server/exports/exports.service";
import { guarded } from "@/server/http/route-auth";

export const dynamic = "force-dynamic";

async function get(_req: Request, ctx: { params: Promise<{ id: string }> }) {
  const { id } = await ctx.params;
  try {
    return exportResponse(await verifiedExportDownload(id));
  } catch (err) {
    return errorResponse(err, `Downloading the export of experiment ${id}`);
  }
}

export const GET = guarded("read", get);
