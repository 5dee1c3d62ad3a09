/**
 * The JSON Schema a recipe.json publishes for a job's input, generated from the zod
 * contract (the input as a caller writes it: defaulted fields are optional).
 */
import { z } from "zod";

/** zod writes the safe-integer range on every integer; in a published schema it is noise. */
function dropSafeIntegerBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(dropSafeIntegerBounds);
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "maximum" && value === Number.MAX_SAFE_INTEGER) continue;
    if (key === "minimum" && value === Number.MIN_SAFE_INTEGER) continue;
    out[key] = dropSafeIntegerBounds(value);
  }
  return out;
}

export function inputJsonSchema(input: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(input, { io: "input" }) as Record<string, unknown>;
  return dropSafeIntegerBounds(schema) as Record<string, unknown>;
}
