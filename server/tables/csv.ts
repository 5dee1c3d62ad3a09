/**
 * The server's one CSV reader (csv-parse) and writer, for the places that look at a
 * table's text before a recipe reads it: the dataset preview, the upload's header check,
 * the CLI's --target check and the one-row file of "Try predictions". The recipes (pandas)
 * judge a file; these only show or count, so reading is lenient the way a spreadsheet is:
 * a stray quote inside a field is kept as text, rows may differ in length, a byte order
 * mark is not data, CRLF, LF and lone CR all end a record, and a record cut off inside a
 * quoted field (the end of a bounded prefix) is dropped rather than an error.
 */
import { parse } from "csv-parse/sync";

/** The delimiters a header is tried with, in the order a tie is won. */
export const DELIMITERS = [",", "\t", ";", "|"] as const;

export interface ReadOptions {
  delimiter: string;
  /** Leave out records that are an empty line (pandas skips them; a preview shows them). */
  skipBlankLines?: boolean;
  /** Stop after this many records (a bounded look at a long text). */
  maxRecords?: number;
}

export function parseRecords(text: string, o: ReadOptions): string[][] {
  return parse(text, {
    delimiter: o.delimiter,
    bom: true,
    relax_quotes: true,
    relax_column_count: true,
    record_delimiter: ["\r\n", "\n", "\r"],
    skip_empty_lines: o.skipBlankLines ?? false,
    skip_records_with_error: true,
    ...(o.maxRecords === undefined ? {} : { to: o.maxRecords }),
  }) as string[][];
}

/** The fields of one record on `delimiter`; one field (the text) when it holds no complete record. */
function fieldsOn(line: string, delimiter: string): string[] {
  return parseRecords(line, { delimiter, maxRecords: 1 })[0] ?? [line];
}

/** A header split on the delimiter that gives the most fields (quoted delimiters do not count). */
export function splitHeader(line: string): { delimiter: string; fields: string[] } {
  let best = { delimiter: DELIMITERS[0] as string, fields: fieldsOn(line, DELIMITERS[0]) };
  for (const delimiter of DELIMITERS.slice(1)) {
    const fields = fieldsOn(line, delimiter);
    if (fields.length > best.fields.length) best = { delimiter, fields };
  }
  return best;
}

export function guessDelimiter(header: string): string {
  return splitHeader(header).delimiter;
}

/** The fields of a header line, on `delimiter` or, without one, on the one that gives the most. */
export function headerFields(line: string, delimiter?: string): string[] {
  return delimiter === undefined ? splitHeader(line).fields : fieldsOn(line, delimiter);
}

/** A field as RFC 4180 writes it: quoted when it holds a comma, quote or line break, or edge spaces. */
export function csvField(v: unknown): string {
  if (v === null || v === undefined) return "";
  const s = typeof v === "number" ? (Number.isFinite(v) ? String(v) : "") : String(v);
  return /[",\r\n]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvLine(fields: unknown[]): string {
  return fields.map(csvField).join(",");
}
