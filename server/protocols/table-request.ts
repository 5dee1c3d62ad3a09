/**
 * The one meeting point of the ecosystem's tabular protocols (MLflow scoring, Open Inference
 * v2) with Trainyard's predict: a protocol body becomes Trainyard rows plus a way back to
 * where the caller wrote each cell, so the feature-schema check of predict-rows.ts (the same
 * one /predict runs) names fields in the caller's own shape (`dataframe_split.data[3][1]`,
 * `inputs[2].data[0]`) instead of `rows[3].bill_length_mm`.
 */
import { DomainError, badInput, isDomainError } from "@/server/errors";
import type { FieldProblem } from "@/server/deployments/predict-rows";

export type { FieldProblem };

/** A protocol body read as rows (objects of column → value, unchecked: predict checks them). */
export interface TableRequest {
  rows: unknown[];
  /**
   * Where the caller wrote row `row`, or its cell of `column`. A column the caller never
   * sent (a missing required one) is named by itself.
   */
  cell(row: number, column?: string): string;
  /** Where the caller named `column`, for a column that is not a feature; absent where each row names its own columns. */
  column?(column: string): string;
}

const ROW_PATH = /^rows\[(\d+)\](?:\.(.+))?$/;
// predict-rows.ts's words for a column the model does not have (unit tests hold the two together).
const NOT_A_FEATURE = "not a feature of this model";

/** `fields` in the caller's paths, one entry per distinct problem (a missing column is named once, not once per row). */
export function relocateFields(fields: FieldProblem[], table: TableRequest): FieldProblem[] {
  const seen = new Set<string>();
  const out: FieldProblem[] = [];
  for (const f of fields) {
    const m = ROW_PATH.exec(f.path);
    let path = f.path;
    if (m) {
      const row = Number(m[1]);
      const column = m[2];
      path = column === undefined ? table.cell(row) : f.message === NOT_A_FEATURE && table.column ? table.column(column) : table.cell(row, column);
    }
    const key = `${path}\u0000${f.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ path, message: f.message });
  }
  return out;
}

/** BAD_INPUT naming every problem (at most 50), the first in the message. */
export function fieldsRefusal(intro: string, fields: FieldProblem[]): DomainError {
  const first = fields[0];
  const where = first ? `: ${first.path}: ${first.message}${fields.length > 1 ? ` (and ${fields.length - 1} more)` : ""}` : "";
  return badInput(`${intro}${where}.`, { code: "bad_input", fields: fields.slice(0, 50) });
}

/**
 * A refusal of predict with its field paths moved to the caller's shape; anything else as it
 * was (not ready, too many rows, a serving process's refusal keep their code and status).
 */
export function relocateRefusal(err: unknown, table: TableRequest): unknown {
  if (!isDomainError(err) || !Array.isArray(err.details?.fields)) return err;
  const fields = relocateFields(err.details.fields as FieldProblem[], table);
  const moved = fieldsRefusal("The rows do not match the model's features", fields);
  return new DomainError(err.code, moved.message, { ...err.details, fields: moved.details!.fields });
}

/** A value a cell may hold on the way to predict: JSON's scalars. */
export type Cell = string | number | boolean | null;

