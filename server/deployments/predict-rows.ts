/**
 * Checks predict rows against a version's feature schema (feature_schema.json of its
 * training) before anything is forwarded, with one problem per field so a client can fix
 * its request: `rows[3].bill_length_mm` → what is wrong. The same schema types the
 * "Try a prediction" form; the recipe checks the columns again when it reads them.
 */
import { z } from "zod";
import type { FeatureSchemaEntry } from "@/contracts/recipes/tabular";
import { ZServeRow, type ServingLimits } from "@/contracts/deployments/serving";
import { badInput } from "@/server/errors";

export type Row = z.infer<typeof ZServeRow>;
export interface FieldProblem {
  path: string;
  message: string;
}

const ZPredictBody = z.strictObject({ rows: z.array(z.unknown()).min(1) });

function cellProblem(f: FeatureSchemaEntry, v: Row[string] | undefined): string | null {
  if (v === undefined || v === null) return f.nullable || !f.usedByModel ? null : "required: the training data had no missing values here";
  switch (f.kind) {
    case "numeric":
      return typeof v === "number" && Number.isFinite(v) ? null : `a number is expected (got ${JSON.stringify(v)})`;
    case "boolean":
      return typeof v === "boolean" || (typeof v === "string" && (f.categories ?? []).includes(v)) ? null : "true or false is expected";
    case "categorical":
      return typeof v === "string" || typeof v === "number" ? null : "a category (text) is expected";
    case "text":
      return typeof v === "string" ? null : "text is expected";
    case "datetime":
      return typeof v === "string" && !Number.isNaN(Date.parse(v)) ? null : "a date or time (ISO 8601 text) is expected";
  }
}

/** The rows, or BAD_INPUT `bad_input` with `fields` naming every problem (at most 50). */
export function checkRows(body: unknown, features: FeatureSchemaEntry[], limits: Pick<ServingLimits, "maxRows">): Row[] {
  const shape = ZPredictBody.safeParse(body);
  if (!shape.success) throw badInput('The body must be {"rows": [{column: value, …}, …]} with at least one row.', { code: "bad_input" });
  if (shape.data.rows.length > limits.maxRows) {
    throw badInput(`At most ${limits.maxRows} rows per request (got ${shape.data.rows.length}).`, { code: "too_many_rows", maxRows: limits.maxRows });
  }
  const byName = new Map(features.map((f) => [f.name, f]));
  const fields: FieldProblem[] = [];
  const rows: Row[] = [];
  shape.data.rows.forEach((raw, i) => {
    const row = ZServeRow.safeParse(raw);
    if (!row.success) return void fields.push({ path: `rows[${i}]`, message: "a row is an object of column: text, number, true/false or null" });
    for (const name of Object.keys(row.data)) if (!byName.has(name)) fields.push({ path: `rows[${i}].${name}`, message: "not a feature of this model" });
    for (const f of features) {
      const problem = cellProblem(f, row.data[f.name]);
      if (problem) fields.push({ path: `rows[${i}].${f.name}`, message: problem });
    }
    // Every feature present, null where the client left one out: the serving process and
    // the predict job read a full row, so an omitted nullable column is not refused there.
    rows.push(Object.fromEntries(features.map((f) => [f.name, row.data[f.name] ?? null])));
  });
  if (fields.length) {
    const first = fields[0]!;
    throw badInput(`The rows do not match the model's features: ${first.path}: ${first.message}${fields.length > 1 ? ` (and ${fields.length - 1} more)` : ""}.`, {
      code: "bad_input",
      fields: fields.slice(0, 50),
    });
  }
  return rows;
}
