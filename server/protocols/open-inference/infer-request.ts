/**
 * The inference request of the Open Inference Protocol v2 (KServe, Triton, MLServer) as rows:
 * one input tensor per feature column, named by the column, shape `[N]` or `[N, 1]`, its
 * `data` flat or one list per row, its elements of its `datatype` (BYTES: text; BOOL:
 * true/false; INTn and UINTn: integers in range; FP*: numbers). `null` is read as a missing value
 * (JSON has no NaN; an extension of the protocol). Optional `id` (echoed), `parameters`
 * (ignored), `outputs` (which outputs to answer). Triton's binary tensor extension is not
 * spoken: `binary_data` / `binary_data_output` true is refused. Paths name the caller's
 * tensors: `inputs[2].data[0]`.
 */
import { z } from "zod";
import { issueFields } from "../field-paths";
import { fieldsRefusal, type Cell, type FieldProblem, type TableRequest } from "../table-request";

export const DATATYPES = ["BOOL", "UINT8", "UINT16", "UINT32", "UINT64", "INT8", "INT16", "INT32", "INT64", "FP16", "FP32", "FP64", "BYTES"] as const;
type Datatype = (typeof DATATYPES)[number];

/** `$parameters`: string, number or boolean values. */
const ZParameters = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]), { error: "an object of name: text, number or true/false is expected" });
const ZElement = z.union([z.string(), z.number(), z.boolean(), z.null()], { error: "a tensor element is text, a number, true/false or null" });
/** An element, or a row of elements: data of shape [N] or [N, 1], flat or nested. */
const ZTensorData = z.union([ZElement, z.array(ZElement)], { error: "tensor data holds values, or lists of values (one per row)" });

export const ZRequestInput = z.strictObject({
  name: z.string().min(1).describe("The feature column this tensor holds"),
  shape: z.array(z.int().nonnegative()).describe("[N] or [N, 1]: N rows"),
  datatype: z.enum(DATATYPES),
  parameters: ZParameters.optional(),
  data: z.array(ZTensorData).describe("N values: flat, or one list of one value per row"),
});
export const ZRequestOutput = z.strictObject({ name: z.string().min(1), parameters: ZParameters.optional() });
export const ZInferRequest = z.strictObject({
  id: z.string().optional().describe("Echoed in the answer"),
  parameters: ZParameters.optional(),
  inputs: z.array(ZRequestInput).min(1, "one input tensor per feature column is expected"),
  outputs: z.array(ZRequestOutput).optional().describe("The outputs to answer (default: all)"),
});
export type InferRequest = z.infer<typeof ZInferRequest>;

const INT_RANGE: Partial<Record<Datatype, [number, number]>> = {
  INT8: [-128, 127],
  INT16: [-32768, 32767],
  INT32: [-2147483648, 2147483647],
  INT64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  UINT8: [0, 255],
  UINT16: [0, 65535],
  UINT32: [0, 4294967295],
  UINT64: [0, Number.MAX_SAFE_INTEGER],
};

/** What is wrong with one element of a `datatype` tensor, or null. */
export function elementProblem(datatype: Datatype, v: Cell): string | null {
  if (v === null) return null;
  if (datatype === "BYTES") return typeof v === "string" ? null : `BYTES data is text (got ${JSON.stringify(v)})`;
  if (datatype === "BOOL") return typeof v === "boolean" ? null : `BOOL data is true or false (got ${JSON.stringify(v)})`;
  if (typeof v !== "number") return `${datatype} data is a number (got ${JSON.stringify(v)})`;
  const range = INT_RANGE[datatype];
  if (!range) return null;
  return Number.isInteger(v) && v >= range[0] && v <= range[1] ? null : `${datatype} data is an integer from ${range[0]} to ${range[1]} (got ${v})`;
}

const flatten = (data: (Cell | Cell[])[]): Cell[] => data.flatMap((d) => (Array.isArray(d) ? d : [d]));

/** Triton's binary extension: `parameters.binary_data…` asking for it (`prefix` is where those parameters are, "" for the request's own). */
function binaryRefused(parameters: Record<string, unknown> | undefined, prefix: string, names: string[]): FieldProblem[] {
  return names
    .filter((n) => parameters?.[n] === true || (n === "binary_data_size" && parameters?.[n] !== undefined))
    .map((n) => ({ path: `${prefix ? `${prefix}.` : ""}parameters.${n}`, message: "binary tensor data (Triton's extension) is not supported: send the data as JSON" }));
}

/** The request, or BAD_INPUT naming every problem of its shape. */
export function parseInferRequest(body: unknown): InferRequest {
  const r = ZInferRequest.safeParse(body);
  if (!r.success) throw fieldsRefusal("The body is not an Open Inference Protocol v2 inference request", issueFields(r.error.issues));
  const fields = [
    ...binaryRefused(r.data.parameters, "", ["binary_data_output"]),
    ...r.data.inputs.flatMap((t, k) => binaryRefused(t.parameters, `inputs[${k}]`, ["binary_data", "binary_data_size"])),
    ...(r.data.outputs ?? []).flatMap((o, k) => binaryRefused(o.parameters, `outputs[${k}]`, ["binary_data"])),
  ];
  if (fields.length) throw fieldsRefusal("The inference request asks for binary tensor data", fields);
  return r.data;
}

/** The rows of the request's input tensors (one tensor per column), or BAD_INPUT naming the tensors that do not make a table. */
export function inferTable(request: InferRequest): TableRequest {
  const fields: FieldProblem[] = [];
  const at = new Map<string, number>();
  const columns: Cell[][] = [];
  let rows: number | null = null;
  request.inputs.forEach((t, k) => {
    if (at.has(t.name)) fields.push({ path: `inputs[${k}].name`, message: `a second tensor named "${t.name}" (inputs[${at.get(t.name)}])` });
    else at.set(t.name, k);
    const values = flatten(t.data);
    columns[k] = values;
    const n = t.shape[0];
    if (n === undefined || t.shape.length > 2 || (t.shape.length === 2 && t.shape[1] !== 1)) {
      return void fields.push({ path: `inputs[${k}].shape`, message: `one value per row is expected: shape [N] or [N, 1] (got ${JSON.stringify(t.shape)})` });
    }
    if (n === 0) return void fields.push({ path: `inputs[${k}].shape`, message: "at least one row is expected" });
    if (values.length !== n) return void fields.push({ path: `inputs[${k}].data`, message: `holds ${values.length} values; its shape ${JSON.stringify(t.shape)} says ${n}` });
    if (rows === null) rows = n;
    else if (n !== rows) fields.push({ path: `inputs[${k}].shape`, message: `${n} rows; the tensors before it have ${rows} (one value per row in every tensor)` });
    values.forEach((v, i) => {
      const problem = elementProblem(t.datatype, v);
      if (problem) fields.push({ path: `inputs[${k}].data[${i}]`, message: problem });
    });
  });
  if (fields.length) throw fieldsRefusal("The input tensors are not one column each of one table", fields);
  const table = Array.from({ length: rows ?? 0 }, (_, i) => Object.fromEntries(request.inputs.map((t, k) => [t.name, columns[k]![i]])));
  return {
    rows: table,
    cell: (i, column) => (column === undefined ? "inputs" : at.has(column) ? `inputs[${at.get(column)}].data[${i}]` : column),
    column: (c) => `inputs[${at.get(c) ?? "?"}].name`,
  };
}
