/**
 * POST /api/datasets/upload?projectId=..&fileName=..&encoding=utf-8|latin-1[&kind=table|examples]
 * Body: the raw file bytes (no multipart), streamed to disk while hashed — never held
 * whole in memory. Used by the browser (XMLHttpRequest, for upload progress) and the CLI.
 * A `.jsonl` file name (or kind=examples) makes a file of examples for fine-tuning.
 * Answers 201 {datasetId, snapshotSha256, bytes, reused} or {error, code} with 400/404/
 * 413/503/507. After a refusal the rest of the body is dropped for a short grace, then the connection is cut (server/http/refused-body.ts).
 */
import { datasetsService } from "@/server/datasets/datasets.service";
import { ZUploadQuery } from "@/server/datasets/datasets.schema";
import { uploadBody } from "@/server/datasets/request-body";
import { isDomainError } from "@/server/errors";
import { errorResponse } from "@/server/http/error-response";
import { guarded } from "@/server/http/route-auth";

export const dynamic = "force-dynamic";

async function post(req: Request) {
  const url = new URL(req.url);
  const parsed = ZUploadQuery.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) return errorResponse(parsed.error, "Upload refused");
  const body = uploadBody(req);
  try {
    const result = await datasetsService().registerUpload(parsed.data, body.chunks, body.contentLength);
    return Response.json(result, { status: 201 });
  } catch (err) {
    if (isDomainError(err)) return errorResponse(err, "Upload refused");
    throw err;
  }
}

export const POST = guarded("write", post);
