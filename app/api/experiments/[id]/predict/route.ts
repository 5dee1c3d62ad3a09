/**
 * POST /api/experiments/<id>/predict?fileName=rows.csv — body: a CSV of new rows (raw
 * bytes, streamed to disk while hashed, capped at PREDICT_FILE_MAX_BYTES). Answers a CSV
 * of the input rows plus `prediction` and `proba::<class>` columns, or JSON `{error, code}`
 * (e.g. the predict job's schema_mismatch message naming the columns).
 */
import { getDb } from "@/server/db/client";
import { attachmentDisposition } from "@/server/http/content-disposition";
import { errorResponse } from "@/server/http/error-response";
import { guarded } from "@/server/http/route-auth";
import { ZPredictFileQuery } from "@/server/predictions/predict-upload";
import { predictionsService } from "@/server/predictions/predictions.service";

export const dynamic = "force-dynamic";

async function post(req: Request, ctx: { params: Promise<{ id: string }> }) {
  const { id } = await ctx.params;
  try {
    const q = ZPredictFileQuery.parse(Object.fromEntries(new URL(req.url).searchParams));
    const len = req.headers.get("content-length");
    const out = await predictionsService(getDb()).predictUpload(id, {
      fileName: q.fileName,
      body: req.body as unknown as AsyncIterable<Uint8Array> | null,
      contentLength: len && /^\d+$/.test(len) ? Number(len) : null,
    });
    const name = q.fileName.replace(/\.csv$/i, "") + "-predictions.csv";
    return new Response(out.csv, {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": attachmentDisposition(name),
        "x-prediction-rows": String(out.rows),
        "x-prediction-job": out.jobId,
        "cache-control": "no-store",
      },
    });
  } catch (err) {
    return errorResponse(err, `Predicting a file with experiment ${id}`);
  }
}

export const POST = guarded("write", post);
