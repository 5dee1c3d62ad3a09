/**
 * A JSON column read back with the schema it was written by: null when the column is
 * empty or holds something else (a row from an older version), never a cast. A row that
 * does not parse is said in the server log once per column value, so a shape that drifted
 * is seen by whoever runs the server instead of only showing as a missing result.
 */
import type { z } from "zod";

const warned = new Set<string>();
const MAX_WARNED = 1000;

function warnOnce(text: string, problem: string): void {
  const key = `${text.length}:${text.slice(0, 200)}`;
  if (warned.has(key) || warned.size >= MAX_WARNED) return;
  warned.add(key);
  console.warn(`trainyard: a stored JSON value does not match its schema and is shown as missing: ${problem}`);
}

export function parseStoredJson<S extends z.ZodType>(schema: S, text: string | null): z.output<S> | null {
  if (!text) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    warnOnce(text, `not JSON (${(err as Error).message})`);
    return null;
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  warnOnce(text, parsed.error.issues.slice(0, 3).map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; "));
  return null;
}
