/**
 * A JSON column read back with the schema it was written by: null when the column is
 * empty or holds something else (a row from an older version), never a cast.
 */
import type { z } from "zod";

export function parseStoredJson<S extends z.ZodType>(schema: S, text: string | null): z.output<S> | null {
  if (!text) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
