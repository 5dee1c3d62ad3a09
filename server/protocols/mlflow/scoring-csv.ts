/**
 * A `text/csv` body of MLflow's scoring protocol as rows: a header row, then one record per
 * row (pandas' `df.to_csv(index=False)`). CSV has no types, so each cell is read as MLflow's
 * `pd.read_csv` would read the training data's column: a number where the feature's type is
 * numeric, true/false for a boolean feature's True/False, and pandas' default missing-value
 * words (empty, NA, NaN, null, None, …) as null; everything else stays text, and the feature
 * schema check then names what does not fit. Paths: `csv[3].bill_length_mm` is the fourth row
 * after the header; `csv.header[7]` a header cell.
 */
import type { FeatureSchemaEntry } from "@/contracts/recipes/tabular";
import { parseRecords } from "@/server/tables/csv";
import { fieldsRefusal, type Cell, type FieldProblem, type TableRequest } from "../table-request";

// pandas.read_csv's default na_values (keep_default_na=True).
const MISSING = new Set(["", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN", "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null"]);
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const NUMERIC_DTYPE = /^(u?int|float|Int|UInt|Float)\d*$/;

function cellOf(text: string, f: FeatureSchemaEntry | undefined): Cell {
  if (MISSING.has(text)) return null;
  if (!f) return text;
  if ((f.kind === "numeric" || NUMERIC_DTYPE.test(f.dtype)) && NUMBER.test(text.trim())) return Number(text.trim());
  if (f.kind === "boolean" && !(f.categories ?? []).includes(text)) {
    if (/^true$/i.test(text)) return true;
    if (/^false$/i.test(text)) return false;
  }
  return text;
}

/** The rows of a CSV text with a header row, typed by `features`, or BAD_INPUT naming the records that are not rows of the header. */
export function csvTable(text: string, features: FeatureSchemaEntry[]): TableRequest {
  let records: string[][];
  try {
    records = parseRecords(text, { delimiter: ",", skipBlankLines: true });
  } catch (err) {
    throw fieldsRefusal("The text/csv body is not a CSV text", [{ path: "csv", message: (err as Error).message.slice(0, 200) }]);
  }
  const [header, ...data] = records;
  if (!header || !data.length) {
    throw fieldsRefusal("The CSV body must have a header row and at least one row (pandas: df.to_csv(index=False))", [{ path: "csv", message: header ? "no row after the header" : "empty" }]);
  }
  const byName = new Map(features.map((f) => [f.name, f]));
  const at = new Map<string, number>();
  const fields: FieldProblem[] = [];
  header.forEach((name, j) => (at.has(name) ? fields.push({ path: `csv.header[${j}]`, message: `the column "${name}" is named twice` }) : at.set(name, j)));
  data.forEach((r, i) => {
    if (r.length !== header.length) fields.push({ path: `csv[${i}]`, message: `has ${r.length} fields; the header has ${header.length}` });
  });
  if (fields.length) throw fieldsRefusal("The CSV body is not a table", fields);
  return {
    rows: data.map((r) => Object.fromEntries(header.map((name, j) => [name, cellOf(r[j]!, byName.get(name))]))),
    cell: (i, column) => (column === undefined ? `csv[${i}]` : at.has(column) ? `csv[${i}].${column}` : column),
    column: (c) => `csv.header[${at.get(c) ?? "?"}]`,
  };
}
