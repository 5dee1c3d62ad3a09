/**
 * The values of the test rows the model got most wrong, read back from the dataset
 * snapshot in This computer's store (every snapshot lives there, DESIGN "Storage on
 * disk"). The evaluation receipt names the rows only by `rowId`, the 0-based data row of
 * the file as the data recipe read it, so the row's columns are looked up here.
 *
 * Limits: CSV/TSV (plain or gzip) only — a Parquet snapshot shows the rows without their
 * values, with a note; blank lines are skipped as pandas does; reading stops at the last
 * wanted row. Results are immutable once an experiment succeeded, so they are cached.
 */
import { createReadStream, existsSync } from "node:fs";
import { createGunzip } from "node:zlib";
import type { Db } from "@/server/db/client";
import { blobPath, localTarget, workerHomeOf } from "@/server/datasets/local-store";

export interface MistakeRows {
  /** Feature columns shown, in file order (the target is the "Actual" column already). */
  columns: string[];
  /** rowId → column → value as written in the file. */
  rows: Record<string, Record<string, string>>;
  /** Why values are missing or cut, when they are. */
  note: string | null;
}

interface TableFormat {
  format?: string;
  delimiter?: string;
  quotechar?: string;
  encoding?: string;
  header?: boolean;
}

const MAX_COLUMNS = 12;
const cache = new Map<string, MistakeRows>();

/** Splits CSV text into records incrementally (quotes may hold delimiters and line breaks). */
export class RecordSplitter {
  private field = "";
  private record: string[] = [];
  private quoted = false;
  private quoteSeen = false;
  constructor(
    private readonly delimiter: string,
    private readonly quote: string,
    private readonly onRecord: (fields: string[]) => boolean,
  ) {}
  /** Feeds text; returns false once onRecord asked to stop. */
  push(text: string): boolean {
    for (let i = 0; i < text.length; i++) {
      const ch = text[i]!;
      if (this.quoted) {
        if (ch === this.quote) {
          this.quoted = false;
          this.quoteSeen = true;
        } else this.field += ch;
        continue;
      }
      if (ch === this.quote && (this.quoteSeen || this.field === "")) {
        // A doubled quote inside a quoted field is one quote character; a quote inside an unquoted field is text.
        if (this.quoteSeen) this.field += ch;
        this.quoted = true;
        this.quoteSeen = false;
        continue;
      }
      this.quoteSeen = false;
      if (ch === this.delimiter) {
        this.record.push(this.field);
        this.field = "";
      } else if (ch === "\n") {
        if (!this.endRecord()) return false;
      } else if (ch !== "\r") this.field += ch;
    }
    return true;
  }
  /** Ends the last record (a file without a final newline). */
  end(): void {
    if (this.field !== "" || this.record.length) this.endRecord();
  }
  private endRecord(): boolean {
    this.record.push(this.field);
    const fields = this.record;
    this.record = [];
    this.field = "";
    // pandas skips blank lines, so they are not data rows.
    if (fields.length === 1 && fields[0] === "") return true;
    return this.onRecord(fields);
  }
}

/** Reads the wanted data rows (0-based, header excluded) of a delimited file. */
export async function readDelimitedRows(file: string, fmt: TableFormat, wanted: Set<number>): Promise<{ header: string[] | null; rows: Map<number, string[]> }> {
  const rows = new Map<number, string[]>();
  let header: string[] | null = null;
  let index = -1;
  const last = Math.max(...wanted);
  const hasHeader = fmt.header !== false;
  let done = false;
  const splitter = new RecordSplitter(fmt.delimiter ?? ",", fmt.quotechar ?? '"', (fields) => {
    if (hasHeader && header === null) {
      header = fields.map((f) => f.trim());
      return true;
    }
    index++;
    if (wanted.has(index)) rows.set(index, fields);
    if (index >= last) done = true;
    return !done;
  });
  const raw = createReadStream(file);
  const stream = fmt.format === "csv.gz" ? raw.pipe(createGunzip()) : raw;
  const decoder = new TextDecoder(fmt.encoding === "latin-1" || fmt.encoding === "iso-8859-1" ? "latin1" : "utf-8");
  let first = true;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let text = decoder.decode(chunk, { stream: true });
      if (first && text.charCodeAt(0) === 0xfeff) text = text.slice(1); // utf-8-sig, as the recipe reads it
      first = false;
      if (!splitter.push(text)) break;
    }
    if (!done) splitter.end();
  } finally {
    raw.destroy();
  }
  return { header, rows };
}

export interface MistakeRowsInput {
  experimentId: string;
  snapshotSha256: string;
  tableFormat: TableFormat;
  target: string;
  excludeColumns: string[];
  rowIds: number[];
}

/** The shown values of the worst rows; never throws (the table then shows the rows without values). */
export async function mistakeRows(db: Db, input: MistakeRowsInput): Promise<MistakeRows | null> {
  if (!input.rowIds.length) return null;
  const hit = cache.get(input.experimentId);
  if (hit) return hit;
  let result: MistakeRows;
  if (input.tableFormat.format === "parquet") {
    result = { columns: [], rows: {}, note: "The row's values are shown for CSV and TSV files; this dataset is Parquet." };
  } else {
    try {
      const file = blobPath(workerHomeOf(await localTarget(db)), input.snapshotSha256);
      if (!existsSync(file)) return { columns: [], rows: {}, note: "The row's values are not shown: the dataset's file is no longer in the store." };
      const { header, rows } = await readDelimitedRows(file, input.tableFormat, new Set(input.rowIds));
      const names = header ?? (rows.values().next().value ?? []).map((_: string, i: number) => `column_${i + 1}`);
      const skip = new Set([input.target, ...input.excludeColumns]);
      const shown = names.map((n, i) => ({ n, i })).filter((c) => !skip.has(c.n));
      const kept = shown.slice(0, MAX_COLUMNS);
      const out: Record<string, Record<string, string>> = {};
      for (const [id, fields] of rows) out[String(id)] = Object.fromEntries(kept.map((c) => [c.n, fields[c.i] ?? ""]));
      result = {
        columns: kept.map((c) => c.n),
        rows: out,
        note: shown.length > kept.length ? `The first ${MAX_COLUMNS} of ${shown.length} columns are shown.` : null,
      };
    } catch (err) {
      return { columns: [], rows: {}, note: `The row's values could not be read back: ${(err as Error).message}` };
    }
  }
  if (cache.size > 50) cache.delete(cache.keys().next().value!);
  cache.set(input.experimentId, result);
  return result;
}
