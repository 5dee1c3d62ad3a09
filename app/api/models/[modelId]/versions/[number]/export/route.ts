/**
 * GET /api/models/<modelId>/versions/<number>/export — a registered version's export
 * archive with its SHA-256 in `X-Checksum-SHA256`, verified on every request; a mismatch
 * is refused (409 export_invalid) and nothing is sent.
 */
import { getDb } from "@/server/db/client";
import { badInput } from "@/server/errors";
import { errorResponse } from "@/server/http/error-response";
import { exportResponse } from "@/server/exports/export-response";
import { guarded } from "@/server/http/route-auth";
import { versionExportDownload } from "@/server/registry/download";

export const dynamic = "force-dynamic";

async function get(_req: Request, ctx: { params: Promise<{ modelId: string; number: string }> }) {
  const { modelId, number } = await ctx.params;
  try {
    if (!/^[1-9]\d{0,8}$/.test(number)) throw badInput(`"${number}" is not a version number.`);
    return exportResponse(await versionExportDownload(getDb(), modelId, Number(number)));
  } catch (err) {
    return errorResponse(err, `Downloading version ${number} of model ${modelId}`);
  }
}

export const GET = guarded("read", get);
