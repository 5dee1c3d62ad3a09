/**
 * The raw body of an upload request (POST /api/datasets/upload, /api/finetune/uploads) as
 * chunks, never held whole. Our own iterator: leaving the loop early (a refusal) must not
 * cancel the body, so the refusal is answered at once and the server treats the rest as
 * any refused body (server/http/refused-body.ts: read and dropped for a short grace, then
 * the connection is cut). A client that goes away mid-stream may leave read() pending
 * forever: every read races the request's abort.
 */
export interface UploadBody {
  chunks: AsyncIterable<Uint8Array>;
  /** Content-Length, when the client sent a well-formed one. */
  contentLength: number | null;
}

export function uploadBody(req: Request): UploadBody {
  const lengthHeader = req.headers.get("content-length");
  const contentLength = lengthHeader && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : null;
  const reader = req.body?.getReader() ?? null;
  const gone = new Promise<never>((_, reject) => {
    const fail = () => reject(new Error("the client closed the connection"));
    if (req.signal.aborted) fail();
    else req.signal.addEventListener("abort", fail, { once: true });
  });
  // Handled where it is raced against each read; this only keeps an early close from being an unhandled rejection.
  gone.catch(() => {});
  const chunks: AsyncIterable<Uint8Array> = {
    async *[Symbol.asyncIterator]() {
      if (!reader) return;
      for (;;) {
        const { done, value } = await Promise.race([reader.read(), gone]);
        if (done) return;
        yield value;
      }
    },
  };
  return { chunks, contentLength };
}
