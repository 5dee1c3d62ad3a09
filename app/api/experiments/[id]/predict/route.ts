/**
 * POST /api/experiments/<id>/predict?fileName=rows.csv — body: a CSV of new rows (raw
 * bytes, streamed to disk while hashed, capped at PREDICT_FILE_MAX_BYTES). Answers a CSV
 * of the input rows plus `prediction` and `proba::<class>` columns, or JSON `{error}`
 * (e.g. the predict job's schema_mismatch message naming the columns).
 */
import { z } from "zod";
import { incomingDir, localTarget, workerHomeOf } from "@/server/datasets/local-store";
import { streamUploadToFile } from "@/server/datasets/upload-stream";
import { getDb } from "@/server/db/client";
import { errorResponse } from "@/server/exports/http-errors";
import { attachmentDisposition } from "@/server/http/content-disposition";
import { predictionsService } from "@/server/predictions/predictions.service";
import { PREDICT_FILE_MAX_BYTES } from "@/server/predictions/predictions.schema";
import { guarded } from "@/server/http/route-auth";

export const dynamic = "force-dynamic";

const ZQuery = z.strictObject({
  fileName: z.string().trim().min(1).max(255).refine((n) => !/[\/\\\0]/.test(n), "A file name cannot contain / or \\.").default("rows.csv"),
});

async function post(req: Request, ctx: { params: Promise<{ id: string }> }) {
  const { id } = await ctx.params;
  try {
    const q = ZQuery.parse(Object.fromEntries(new URL(req.url).searchParams));
    if (!req.body) return Response.json({ error: "Send the CSV file as the request body." }, { status: 400 });
    const db = getDb();
    const home = workerHomeOf(await localTarget(db));
    const len = req.headers.get("content-length");
    const up = await streamUploadToFile(req.body as unknown as AsyncIterable<Uint8Array>, {
      dir: incomingDir(home),
      fileName: q.fileName,
      maxBytes: PREDICT_FILE_MAX_BYTES,
      expectedBytes: len ? Number(len) : null,
      encoding: "utf-8",
      maxLineBytes: 10 * 1024 * 1024,
      maxColumns: 10_000,
    });
    if (up.kind !== "text") return Response.json({ error: `${q.fileName} is not a CSV text file (it looks like ${up.kind}).` }, { status: 400 });
    const out = await predictionsService(db).predictFile({ experimentId: id, tmpPath: up.tmpPath, sha256: up.sha256, bytes: up.bytes, fileName: q.fileName });
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
