/**
 * The JSON body of MLflow's scoring protocol (`POST /invocations`, as
 * mlflow/pyfunc/scoring_server reads it) as rows: exactly one of `dataframe_split`
 * ({columns, data, index?}: pandas' `to_json(orient="split")`), `dataframe_records` (a list
 * of row objects), `instances` or `inputs` (each a list of row objects, or an object of
 * column → list of values; MLflow reads both the same way for a model with named columns),
 * and optionally `params`, which MLflow hands to a model that takes parameters and otherwise
 * ignores: a Trainyard model takes none, so they are ignored here too. Anything else is
 * refused with the fields named in the caller's shape.
 */
import { z } from "zod";
import { badInput } from "@/server/errors";
import { issueFields } from "../field-paths";
import { fieldsRefusal, type Cell, type FieldProblem, type TableRequest } from "../table-request";

export const SCORING_INPUT_KEYS = ["dataframe_split", "dataframe_records", "instances", "inputs"] as const;
type InputKey = (typeof SCORING_INPUT_KEYS)[number];

const ZCell = z.union([z.string(), z.number(), z.boolean(), z.null()], { error: "a value is text, a number, true/false or null" });
const ZRowObject = z.record(z.string(), ZCell, { error: "a row is an object of column: value" });

export const ZDataframeSplit = z.strictObject(
  {
    columns: z.array(z.string(), { error: "a list of column names is expected" }),
    data: z.array(z.array(ZCell, { error: "a row is a list of values, one per column" }), { error: "a list of rows is expected" }).min(1, "at least one row is expected"),
    index: z.array(z.unknown()).optional().describe("Ignored: answers come in the order of the rows"),
  },
  { error: "an object {columns, data, index?} is expected (pandas' to_json(orient=\"split\"))" },
);
export const ZDataframeRecords = z.array(ZRowObject, { error: "a list of rows (objects of column: value) is expected" }).min(1, "at least one row is expected");
/** `instances` / `inputs`: rows, or columns of equal length (all scalars: one row). */
export const ZTensorInput = z.union([ZDataframeRecords, z.record(z.string(), z.union([z.array(ZCell), ZCell]))]);
const ZParams = z.record(z.string(), z.unknown()).nullable().describe("Ignored: a Trainyard model takes no parameters");

/** The body as the OpenAPI document describes it: exactly one input field, and params. */
export const ZScoringRequest = z.union([
  z.strictObject({ dataframe_split: ZDataframeSplit, params: ZParams.optional() }),
  z.strictObject({ dataframe_records: ZDataframeRecords, params: ZParams.optional() }),
  z.strictObject({ instances: ZTensorInput, params: ZParams.optional() }),
  z.strictObject({ inputs: ZTensorInput, params: ZParams.optional() }),
]);

const REQUIRED = `The input must be a JSON object with exactly one of the input fields ${SCORING_INPUT_KEYS.join(", ")} (and optionally params)`;

/** The rows of a parsed JSON body, or BAD_INPUT naming what is wrong. */
export function scoringTable(body: unknown): TableRequest {
  if (Array.isArray(body)) throw badInput(`${REQUIRED}. Received a list.`, { code: "bad_input" });
  if (typeof body !== "object" || body === null) throw badInput(`${REQUIRED}. Received ${body === null ? "null" : typeof body}.`, { code: "bad_input" });
  const keys = Object.keys(body);
  const unknown = keys.filter((k) => k !== "params" && !(SCORING_INPUT_KEYS as readonly string[]).includes(k));
  const given = keys.filter((k): k is InputKey => (SCORING_INPUT_KEYS as readonly string[]).includes(k));
  const fields: FieldProblem[] = unknown.map((k) => ({ path: k, message: `not an input field of MLflow's scoring protocol (${SCORING_INPUT_KEYS.join(", ")}, params)` }));
  if (given.length > 1) fields.push(...given.map((k) => ({ path: k, message: `send only one of ${given.join(" and ")}` })));
  if (given.length === 0) fields.push({ path: SCORING_INPUT_KEYS.join(" | "), message: "one of these input fields is required" });
  const record = body as Record<string, unknown>;
  const params = ZParams.optional().safeParse(record.params);
  if (!params.success) fields.push(...issueFields(params.error.issues, ["params"]));
  if (fields.length) throw fieldsRefusal(`${REQUIRED}. Received the fields ${JSON.stringify(keys)}`, fields);
  const key = given[0]!;
  const value = record[key];
  if (key === "dataframe_split") return splitTable(value);
  if (key === "dataframe_records") return recordsTable(key, value);
  return Array.isArray(value) ? recordsTable(key, value) : columnsTable(key, value);
}

function parsed<T>(schema: z.ZodType<T>, value: unknown, key: InputKey): T {
  const r = schema.safeParse(value);
  if (!r.success) throw fieldsRefusal(`The ${key} input is not in MLflow's ${key} shape`, issueFields(r.error.issues, [key]));
  return r.data;
}

function splitTable(value: unknown): TableRequest {
  const split = parsed(ZDataframeSplit, value, "dataframe_split");
  const at = new Map<string, number>();
  const fields: FieldProblem[] = [];
  split.columns.forEach((c, j) => (at.has(c) ? fields.push({ path: `dataframe_split.columns[${j}]`, message: `the column "${c}" is named twice` }) : at.set(c, j)));
  split.data.forEach((row, i) => {
    if (row.length !== split.columns.length) fields.push({ path: `dataframe_split.data[${i}]`, message: `has ${row.length} values for ${split.columns.length} columns` });
  });
  if (fields.length) throw fieldsRefusal("The dataframe_split input is not a table", fields);
  return {
    rows: split.data.map((row) => Object.fromEntries(split.columns.map((c, j) => [c, row[j]]))),
    cell: (i, column) => (column === undefined ? `dataframe_split.data[${i}]` : at.has(column) ? `dataframe_split.data[${i}][${at.get(column)}]` : column),
    column: (c) => `dataframe_split.columns[${at.get(c) ?? "?"}]`,
  };
}

function recordsTable(key: InputKey, value: unknown): TableRequest {
  const rows = parsed(ZDataframeRecords, value, key);
  return { rows, cell: (i, column) => `${key}[${i}]${column === undefined ? "" : `.${column}`}` };
}

/** An object of column → list of values (MLflow: the lists must be of one length), or of column → value (one row). */
function columnsTable(key: InputKey, value: unknown): TableRequest {
  const columns = parsed(z.record(z.string(), z.union([z.array(ZCell), ZCell]), { error: "a list of rows, or an object of column: list of values, is expected" }), value, key);
  const names = Object.keys(columns);
  if (!names.length) throw fieldsRefusal(`The ${key} input has no column`, [{ path: key, message: "at least one column is expected" }]);
  const lists = names.filter((n) => Array.isArray(columns[n]));
  if (lists.length === 0) {
    return { rows: [columns], cell: (_i, column) => (column === undefined ? key : Object.hasOwn(columns, column) ? `${key}.${column}` : column), column: (c) => `${key}.${c}` };
  }
  const length = (columns[lists[0]!] as Cell[]).length;
  const fields: FieldProblem[] = names.flatMap((n) => {
    const v = columns[n];
    if (!Array.isArray(v)) return [{ path: `${key}.${n}`, message: "a list of values is expected (the other columns are lists)" }];
    return v.length === length ? [] : [{ path: `${key}.${n}`, message: `has ${v.length} values; ${lists[0]} has ${length} (every column needs one value per row)` }];
  });
  if (length === 0) fields.push({ path: `${key}.${lists[0]}`, message: "at least one row is expected" });
  if (fields.length) throw fieldsRefusal(`The ${key} input is not a table`, fields);
  const rows = Array.from({ length }, (_, i) => Object.fromEntries(names.map((n) => [n, (columns[n] as Cell[])[i]])));
  return { rows, cell: (i, column) => (column === undefined ? key : Object.hasOwn(columns, column) ? `${key}.${column}[${i}]` : column), column: (c) => `${key}.${c}` };
}
