/**
 * The column names of a local data file, read before uploading it so that a mistyped
 * `--target` is refused at once, with the columns listed, instead of after the upload
 * and the profile. CSV/TSV (optionally gzip): the first line, split on the delimiter the
 * header suggests; Parquet: the schema in the file's footer (hyparquet). It answers null
 * when it cannot tell (empty file, a header cut by a quoted line break, an unreadable
 * Parquet footer): then the server's profile decides, as before.
 * Limit: it reads at most the first 10 MB (the upload's line cap).
 */
import { closeSync, openSync, readSync, createReadStream } from "node:fs";
import path from "node:path";
import { closest, distance } from "fastest-levenshtein";
import { createGunzip } from "node:zlib";
import { DELIMITERS, headerFields, splitHeader } from "@/server/tables/csv";

const MAX_HEADER_BYTES = 10 * 1024 * 1024;

export interface FileHeader {
  format: "text" | "gzip" | "parquet";
  /** The names as the header suggests (its most frequent delimiter). */
  columns: string[];
  /** Every name some delimiter would give: a target in none of them is surely wrong. */
  candidates: Set<string>;
}

function firstBytes(file: string, count: number): Buffer {
  const fd = openSync(file, "r");
  try {
    const buf = Buffer.alloc(count);
    const n = readSync(fd, buf, 0, count, 0);
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

const magic = (file: string) => firstBytes(file, 4);

/** How much of a text file is looked at for a NUL byte: a picture or an archive has one at once. */
const BINARY_PROBE_BYTES = 8192;

/**
 * Why the file is not a table when it is binary (a NUL byte in its first bytes, and not
 * gzip or Parquet): the words of the upload's own refusal (server/datasets/content-check.ts),
 * said before anything is sent. Null for a file that may be a table.
 */
export function binaryProblem(file: string): string | null {
  const head = firstBytes(file, BINARY_PROBE_BYTES);
  if (head.subarray(0, 4).toString("latin1") === "PAR1" || (head[0] === 0x1f && head[1] === 0x8b)) return null;
  const at = head.indexOf(0);
  if (at < 0) return null;
  return `${path.basename(file)} contains a NUL byte at offset ${at}: it is binary data, not a text table, whatever its name says. Give a CSV or TSV file (optionally gzip), or Parquet.`;
}

/** The bytes before the first line break (or null when there is none within the cap). */
async function firstLine(stream: NodeJS.ReadableStream): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const nl = chunk.indexOf(0x0a);
    if (nl >= 0) {
      chunks.push(chunk.subarray(0, nl));
      return Buffer.concat(chunks);
    }
    chunks.push(chunk);
    size += chunk.length;
    if (size > MAX_HEADER_BYTES) return null;
  }
  return size ? Buffer.concat(chunks) : null;
}

function decode(bytes: Buffer): string {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    text = bytes.toString("latin1"); // the upload offers Latin-1 for such files
  }
  return text.replace(/^\ufeff/, "").replace(/\r$/, "");
}

function fromHeaderLine(line: string, format: "text" | "gzip"): FileHeader | null {
  if (!line.trim()) return null;
  // An odd number of quotes: a quoted field goes on past this line; let the profile read it.
  if ((line.match(/"/g)?.length ?? 0) % 2 === 1) return null;
  const trimmed = (fields: string[]) => fields.map((n) => n.trim());
  const candidates = new Set(DELIMITERS.flatMap((d) => trimmed(headerFields(line, d))));
  return { format, columns: trimmed(splitHeader(line).fields), candidates };
}

async function parquetColumns(file: string): Promise<FileHeader | null> {
  try {
    const { asyncBufferFromFile, parquetMetadataAsync, parquetSchema } = await import("hyparquet");
    const metadata = await parquetMetadataAsync(await asyncBufferFromFile(file));
    const columns = parquetSchema(metadata).children.map((c) => c.element.name);
    return { format: "parquet", columns, candidates: new Set(columns) };
  } catch {
    return null;
  }
}

export async function readFileHeader(file: string): Promise<FileHeader | null> {
  const head = magic(file);
  if (head.toString("latin1") === "PAR1") return parquetColumns(file);
  if (head[0] === 0x1f && head[1] === 0x8b) {
    const source = createReadStream(file);
    try {
      // A damaged gzip has no header to show here; the server's own check of the file says what is wrong.
      const line = await firstLine(source.pipe(createGunzip())).catch(() => null);
      return line ? fromHeaderLine(decode(line), "gzip") : null;
    } finally {
      source.destroy();
    }
  }
  const line = await firstLine(createReadStream(file, { end: MAX_HEADER_BYTES }));
  return line ? fromHeaderLine(decode(line), "text") : null;
}

/**
 * Null when `target` can be a column of the file; otherwise the message naming the
 * columns. A file without a header gets the names column_1, column_2, … (as the profile
 * names them), so those are accepted up to the first row's width.
 */
export function targetProblem(header: FileHeader, target: string): string | null {
  if (header.candidates.has(target)) return null;
  const numbered = /^column_(\d+)$/.exec(target);
  if (numbered && Number(numbered[1]) >= 1 && Number(numbered[1]) <= header.columns.length) return null;
  const shown = header.columns.slice(0, 50).join(", ") + (header.columns.length > 50 ? `, … (${header.columns.length} in all)` : "");
  return `There is no column "${target}" in the file (columns: ${shown}).${nearMiss(header.columns, target)}`;
}

/** " Did you mean …?" for a name one or two edits away (or another case) from a column; else "". */
function nearMiss(columns: string[], target: string): string {
  if (!columns.length) return "";
  const sameCase = columns.find((c) => c.toLowerCase() === target.toLowerCase());
  if (sameCase) return ` Did you mean "${sameCase}"? Names are case-sensitive.`;
  const near = closest(target, columns);
  // Two edits, but never most of a short name (`id` is not near `x`).
  return distance(target, near) <= Math.min(2, Math.floor(near.length / 3)) ? ` Did you mean "${near}"?` : "";
}
