/**
 * POST /api/holdouts/upload?projectId=..&fileName=..[&name=..][&encoding=utf-8|latin-1]
 * Body: the raw file bytes, streamed and hashed like a dataset upload (server/holdouts/create.ts),
 * but reserved as a holdout: never a dataset, never offered to training.
 * Answers 201 with the holdout ({id, name, sha256, rows, columns, reused?}) or {error, code}.
 */
import { ZHoldoutUploadQuery } from "@/server/holdouts/holdouts.schema";
import { holdoutsService } from "@/server/holdouts/holdouts.service";
import { uploadBody } from "@/server/datasets/request-body";
import { isDomainError } from "@/server/errors";
import { errorResponse } from "@/server/http/error-response";
import { guarded } from "@/server/http/route-auth";

export const dynamic = "force-dynamic";

async function post(req: Request) {
  const url = new URL(req.url);
  const parsed = ZHoldoutUploadQuery.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) return errorResponse(parsed.error, "Holdout refused");
  const body = uploadBody(req);
  try {
    return Response.json(await holdoutsService().createFromUpload(parsed.data, body.chunks, body.contentLength), { status: 201 });
  } catch (err) {
    if (isDomainError(err)) return errorResponse(err, "Holdout refused");
    throw err;
  }
}

export const POST = guarded("write", post);
