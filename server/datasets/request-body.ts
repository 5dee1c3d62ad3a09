/**
 * The raw body of an upload request (POST /api/datasets/upload, /api/finetune/uploads) as
 * chunks, never held whole. Our own iterator: leaving the loop early (a refusal) must not
 * cancel the body, which is then read and dropped (up to 256 MiB, for at most 5 s) so the
 * client sees the answer instead of a reset connection; a client still sending after that
 * (a 60 GiB file announced over the cap) gets the answer and may see its connection cut.
 * A client that goes away mid-stream may leave read() pending forever: every read races
 * the request's abort.
 */
const DRAIN_LIMIT = 256 * 1024 * 1024;
const DRAIN_GRACE_MS = 5_000;

export interface UploadBody {
  chunks: AsyncIterable<Uint8Array>;
  /** Content-Length, when the client sent a well-formed one. */
  contentLength: number | null;
  /** After a refusal: read and drop the rest of the body, unless the client is gone. */
  drain(): Promise<void>;
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
  async function dropRest(r: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
    let seen = 0;
    try {
      while (seen < DRAIN_LIMIT) {
        const { done, value } = await r.read();
        if (done) return;
        seen += value.length;
      }
      await r.cancel();
    } catch {
      // The client went away: nothing to answer.
    }
  }
  return {
    chunks,
    contentLength,
    drain: async () => {
      if (!reader || req.signal.aborted) return;
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, DRAIN_GRACE_MS)));
      await Promise.race([dropRest(reader), gone.catch(() => {}), grace]);
      clearTimeout(timer);
    },
  };
}
