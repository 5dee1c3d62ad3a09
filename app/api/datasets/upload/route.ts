/**
 * POST /api/datasets/upload?projectId=..&fileName=..&encoding=utf-8|latin-1
 * Body: the raw file bytes (no multipart), streamed to disk while hashed — never held
 * whole in memory. Used by the browser (XMLHttpRequest, for upload progress) and the CLI.
 * Answers 201 {datasetId, snapshotSha256, bytes, reused} or {error, code} with 400/404/
 * 413/503/507. After a refusal the rest of the body is read and dropped (up to 256 MiB)
 * so the client sees the answer instead of a reset connection.
 */
import { datasetsService } from "@/server/datasets/datasets.service";
import { ZUploadQuery } from "@/server/datasets/datasets.schema";
import { isDomainError } from "@/server/errors";
import { errorResponse } from "@/server/http/error-response";
import { guarded } from "@/server/http/route-auth";

export const dynamic = "force-dynamic";

const DRAIN_LIMIT = 256 * 1024 * 1024;

async function drain(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  let seen = 0;
  try {
    while (seen < DRAIN_LIMIT) {
      const { done, value } = await reader.read();
      if (done) return;
      seen += value.length;
    }
    await reader.cancel();
  } catch {
    // The client went away: nothing to answer.
  }
}

async function post(req: Request) {
  const url = new URL(req.url);
  const parsed = ZUploadQuery.safeParse(Object.fromEntries(url.searchParams));
  if (!parsed.success) return errorResponse(parsed.error, "Upload refused");
  const lengthHeader = req.headers.get("content-length");
  const contentLength = lengthHeader && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : null;
  const reader = req.body?.getReader() ?? null;
  // Our own iterator: leaving the loop early must not cancel the body (we drain it below).
  // A client that goes away mid-stream may leave read() pending forever: race the abort.
  const gone = new Promise<never>((_, reject) => {
    const fail = () => reject(new Error("the client closed the connection"));
    if (req.signal.aborted) fail();
    else req.signal.addEventListener("abort", fail, { once: true });
  });
  gone.catch(() => {});
  const body: AsyncIterable<Uint8Array> = {
    async *[Symbol.asyncIterator]() {
      if (!reader) return;
      for (;;) {
        const { done, value } = await Promise.race([reader.read(), gone]);
        if (done) return;
        yield value;
      }
    },
  };
  try {
    const result = await datasetsService().registerUpload(parsed.data, body, contentLength);
    return Response.json(result, { status: 201 });
  } catch (err) {
    if (reader && !req.signal.aborted) await Promise.race([drain(reader), gone.catch(() => {})]);
    if (isDomainError(err)) return errorResponse(err, "Upload refused");
    throw err;
  }
}

export const POST = guarded("write", post);
