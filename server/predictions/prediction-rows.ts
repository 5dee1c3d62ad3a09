/**
 * Small CSV helpers for predictions (RFC 4180: comma, double quotes, CRLF or LF). Pure;
 * the predict job itself reads the CSV with the recipe's own reader — these only build
 * the one-row file of "Try predictions" and join a file's rows with its predictions.
 *
 * The joined file is a download people open in a spreadsheet, so its text cells are
 * neutralised against formula injection (safeCsvField); the one-row file fed to the
 * model is not (a changed value would change the prediction).
 */

export function csvField(v: unknown): string {
  if (v === null || v === undefined) return "";
  const s = typeof v === "number" ? (Number.isFinite(v) ? String(v) : "") : String(v);
  return /[",\r\n]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvLine(fields: unknown[]): string {
  return fields.map(csvField).join(",");
}

// A spreadsheet reads a cell starting with one of these as a formula (OWASP CSV injection).
const FORMULA_START = /^[=+\-@\t\r]/;
// A plain decimal number ("-1.5", "+2", "1e-3"): left as it is so it stays a number.
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * OWASP's rule for CSV downloads: a text cell that starts with =, +, -, @, tab or CR is
 * prefixed with a single quote so it shows as text; a cell that is a finite decimal
 * number is left alone. Stricter than Number(): "\t1" or "-0x1" are text here.
 */
export function neutraliseCell(v: unknown): unknown {
  if (typeof v !== "string" || !FORMULA_START.test(v)) return v;
  if (DECIMAL.test(v) && Number.isFinite(Number(v))) return v;
  return `'${v}`;
}

/** A field of a CSV meant for download: neutralised, then quoted as needed. */
export function safeCsvField(v: unknown): string {
  return csvField(neutraliseCell(v));
}

function safeCsvLine(fields: unknown[]): string {
  return fields.map(safeCsvField).join(",");
}

/** Parses CSV text into rows of strings; quoted fields may hold commas, quotes and newlines. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; // a UTF-8 byte order mark is not data
  for (; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
    } else if (c === '"' && field === "") quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    }
    else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += c;
  }
  if (field !== "" || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

export interface PredictionRow {
  rowId: number;
  prediction: unknown;
  probabilities: Record<string, number>;
}

/** Input rows (header first) plus prediction and `proba::<class>` columns, joined by row id; for download. */
export function joinPredictions(input: string[][], predictions: PredictionRow[], classes: string[]): string {
  const [header = [], ...rows] = input;
  const byRow = new Map(predictions.map((p) => [p.rowId, p]));
  const out = [safeCsvLine([...header, "prediction", ...classes.map((c) => `proba::${c}`)])];
  rows.forEach((r, i) => {
    const p = byRow.get(i);
    out.push(safeCsvLine([...r, p?.prediction ?? "", ...classes.map((c) => p?.probabilities[c] ?? "")]));
  });
  return out.join("\n") + "\n";
}

/** Turns parquet records (row_id, prediction, proba::<class>…) into prediction rows and the class list. */
export function toPredictionRows(records: Record<string, unknown>[]): { rows: PredictionRow[]; classes: string[] } {
  const classes = records[0] ? Object.keys(records[0]).filter((k) => k.startsWith("proba::")).map((k) => k.slice(7)) : [];
  const rows = records.map((r) => {
    const probabilities: Record<string, number> = {};
    for (const c of classes) probabilities[c] = Number(r[`proba::${c}`]);
    const pred = typeof r.prediction === "bigint" ? Number(r.prediction) : r.prediction;
    return { rowId: Number(r.row_id), prediction: pred, probabilities };
  });
  return { rows: rows.sort((a, b) => a.rowId - b.rowId), classes };
}
