/**
 * Base-model files for fine-tuning, stored on This computer by SHA-256 (server/finetune/uploads.ts).
 * POST ?projectId=..&fileName=..  Body: the raw bytes of one .gguf file or one file of a
 *   model folder, streamed (never held in memory). Answers 201 {sha256, bytes, reused} or
 *   {error, code} with 400/404/413/503/507; after a refusal the rest of the body is dropped for a short grace, then the connection is cut (server/http/refused-body.ts).
 * GET ?projectId=..&sha256=..  Answers {sha256, present, bytes}: a client skips a file
 *   whose bytes are stored already (a folder upload that was interrupted resumes so).
 */
import { uploadBody } from "@/server/datasets/request-body";
import { isDomainError } from "@/server/errors";
import { modelUploads, ZModelFileQuery, ZModelUploadQuery } from "@/server/finetune/uploads";
import { errorResponse } from "@/server/http/error-response";
import { guarded } from "@/server/http/route-auth";

export const dynamic = "force-dynamic";

async function post(req: Request) {
  const parsed = ZModelUploadQuery.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!parsed.success) return errorResponse(parsed.error, "Upload refused");
  const body = uploadBody(req);
  try {
    return Response.json(await modelUploads().store(parsed.data, body.chunks, body.contentLength), { status: 201 });
  } catch (err) {
    if (isDomainError(err)) return errorResponse(err, "Upload refused");
    throw err;
  }
}

async function get(req: Request) {
  const parsed = ZModelFileQuery.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!parsed.success) return errorResponse(parsed.error, "Looking up the model file");
  try {
    return Response.json(await modelUploads().status(parsed.data));
  } catch (err) {
    return errorResponse(err, "Looking up the model file");
  }
}

export const POST = guarded("write", post);
export const GET = guarded("read", get);
