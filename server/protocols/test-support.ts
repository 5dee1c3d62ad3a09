/** What the protocol unit tests share: a penguins-like feature schema, and a refusal read back as its status, reason and fields. */
import type { FeatureSchemaEntry } from "@/contracts/recipes/tabular";
import { checkRows } from "@/server/deployments/predict-rows";
import { isDomainError } from "@/server/errors";
import { relocateRefusal, type TableRequest } from "./table-request";

const feature = (name: string, kind: FeatureSchemaEntry["kind"], dtype: string, nullable = false, categories?: string[]): FeatureSchemaEntry => ({ name, dtype, kind, nullable, usedByModel: true, example: null, ...(categories ? { categories } : {}) });

export const FEATURES: FeatureSchemaEntry[] = [
  feature("island", "categorical", "object", false, ["Biscoe", "Dream", "Torgersen"]),
  feature("bill_length_mm", "numeric", "float64", true),
  feature("sex", "categorical", "object", true, ["male", "female"]),
  feature("year", "numeric", "int64"),
  feature("tagged", "boolean", "bool", true),
];

/** The refusal `run` throws (status, reason, message, fields), or null when it throws nothing. */
export function refusalOf(run: () => unknown) {
  try {
    run();
  } catch (err) {
    if (!isDomainError(err)) throw err;
    return { status: err.httpStatus, reason: err.reason, message: err.message, fields: (err.details?.fields as { path: string; message: string }[] | undefined) ?? null };
  }
  return null;
}

/** The table's rows through /predict's own check (predict-rows.ts), its refusal relocated to the caller's paths; the checked rows when they pass. */
export function checked(table: TableRequest) {
  try {
    return checkRows({ rows: table.rows }, FEATURES, { maxRows: 1000 });
  } catch (err) {
    throw relocateRefusal(err, table);
  }
}
