/**
 * Reads a JSON request body with a hard cap, counting bytes while reading (a body sent
 * without Content-Length, or one whose header lies, is cut off at the cap instead of being
 * buffered whole). Route handlers read JSON only through this. Upload and predict-file
 * keep their own, larger, streaming caps.
 */
import { DomainError } from "@/server/errors";
import { errorResponse } from "./error-response";

export const JSON_BODY_LIMIT = 256 * 1024;

/** Answered 413 `too_large`. */
export class BodyTooLarge extends DomainError {
  constructor(readonly limit: number) {
    super("BAD_INPUT", `The request body is larger than ${Math.round(limit / 1024)} KiB.`, { code: "too_large", limit });
    this.name = "BodyTooLarge";
  }
}

/** Answered 400 `not_json`. */
export class BodyNotJson extends DomainError {
  constructor() {
    super("BAD_INPUT", "The request body is not valid JSON.", { code: "not_json" });
    this.name = "BodyNotJson";
  }
}

/** The body's text, or BodyTooLarge once more than `limit` bytes arrived. */
export async function readTextBody(req: Request, limit = JSON_BODY_LIMIT): Promise<string> {
  const declared = req.headers.get("content-length");
  if (declared && /^\d+$/.test(declared) && Number(declared) > limit) throw new BodyTooLarge(limit);
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let seen = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    seen += value.length;
    if (seen > limit) {
      // The refusal is decided; a body that cannot be cancelled any more changes nothing of it.
      await reader.cancel().catch(() => {});
      throw new BodyTooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** Parsed JSON (unknown: validate it with zod), BodyTooLarge or BodyNotJson. */
export async function readJsonBody(req: Request, limit = JSON_BODY_LIMIT): Promise<unknown> {
  const text = await readTextBody(req, limit);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new BodyNotJson();
  }
}

/** The answer for a body error, or null when `err` is something else. */
export function bodyErrorResponse(err: unknown): Response | null {
  return err instanceof BodyTooLarge || err instanceof BodyNotJson ? errorResponse(err, "Reading the request") : null;
}
