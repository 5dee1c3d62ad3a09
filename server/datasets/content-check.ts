/**
 * Streaming checks on an upload's bytes, so a file that the profile would refuse for a
 * cheap reason is refused while it arrives and nothing is stored: empty, NUL bytes
 * (binary), invalid UTF-8 (unless read as Latin-1), a line over the line cap, a header
 * with more columns than the column cap (the header parsed by server/tables/csv), a header
 * and no data rows (one non-blank line).
 * Gzip and Parquet (by magic bytes) skip the text checks; the profile job checks them
 * (decompressed cap, header-only, ragged rows). Limit: a header whose quoted field spans
 * lines counts as two lines here, so such a header-only file is left to the profile.
 * Memory: constant (the header is kept only up to the line cap while it is counted).
 * Shape "lines" (a JSONL file of examples) keeps the text checks (empty, NUL, UTF-8, line
 * cap) but has no header: one line is a whole example, and compressed files are refused.
 */
import { formatBytes } from "@/contracts/vocabulary";
import { badInput, type DomainError } from "@/server/errors";
import { headerFields } from "@/server/tables/csv";

export type Encoding = "utf-8" | "latin-1";
export type SniffedKind = "text" | "gzip" | "parquet";

export interface ContentLimits {
  /** "table" (CSV, TSV, gzip, Parquet) or "lines" (JSONL: one example per line). */
  shape: "table" | "lines";
  encoding: Encoding;
  maxLineBytes: number;
  maxColumns: number;
}

const refuse = (code: string, message: string, details: Record<string, unknown> = {}): DomainError => badInput(message, { code, ...details });

export class ContentChecker {
  private offset = 0;
  private line = 1;
  private lineBytes = 0;
  private onlyWhitespace = true;
  // Lines with something other than whitespace: one means a header and no data rows.
  private contentLines = 0;
  private lineHasContent = false;
  private kind: SniffedKind | null = null;
  private header: number[] = [];
  private headerDone = false;
  // UTF-8 state: continuation bytes still expected, and the lead byte's offset.
  private need = 0;
  private leadAt = 0;

  constructor(
    private readonly fileName: string,
    private readonly limits: ContentLimits,
  ) {}

  get sniffed(): SniffedKind {
    return this.kind ?? "text";
  }

  /** Throws a BAD_INPUT DomainError (details.code = the data recipe's refusal code). */
  push(chunk: Uint8Array): void {
    if (this.kind === null && chunk.length > 0) {
      this.kind = chunk[0] === 0x1f && chunk[1] === 0x8b ? "gzip" : chunk[0] === 0x50 && chunk[1] === 0x41 && chunk[2] === 0x52 && chunk[3] === 0x31 ? "parquet" : "text";
    }
    if (this.kind !== "text" && this.limits.shape === "lines") {
      throw refuse("not_text", `${this.fileName} is ${this.kind === "gzip" ? "gzip-compressed" : "a Parquet file"}, not a JSONL text file of examples: upload the uncompressed .jsonl file.`);
    }
    if (this.kind !== "text") {
      this.offset += chunk.length;
      this.onlyWhitespace = false;
      return;
    }
    // A NUL anywhere in the chunk says "binary" more truly than the invalid UTF-8 before it.
    const nul = chunk.indexOf(0);
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      const at = this.offset + i;
      if (nul >= 0 && i < nul && this.limits.encoding === "utf-8") {
        if (b === 0x0a) this.line++;
        continue;
      }
      if (b === 0) {
        throw refuse("not_text", `${this.fileName} contains a NUL byte at offset ${at} (line ${this.line}): it is binary data, not a text table, whatever its name says.`, { offset: at, line: this.line });
      }
      if (this.limits.encoding === "utf-8") this.utf8(b, at);
      if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) {
        this.onlyWhitespace = false;
        this.lineHasContent = true;
      }
      if (b === 0x0a) {
        if (this.lineHasContent) this.contentLines++;
        this.lineHasContent = false;
        if (!this.headerDone && this.limits.shape === "table") this.finishHeader();
        this.line++;
        this.lineBytes = 0;
        continue;
      }
      this.lineBytes++;
      if (!this.headerDone && this.limits.shape === "table") this.header.push(b);
      if (this.lineBytes > this.limits.maxLineBytes) {
        throw refuse("line_too_long", `Line ${this.line} of ${this.fileName} is longer than the line limit of ${formatBytes(this.limits.maxLineBytes)} (Settings → Data). Is it really a table with one row per line?`, {
          line: this.line,
          limit: this.limits.maxLineBytes,
        });
      }
    }
    this.offset += chunk.length;
  }

  /** Call at the end of the stream. */
  finish(): void {
    if (this.offset === 0 || (this.kind === "text" && this.onlyWhitespace)) {
      throw refuse("empty_file", `${this.fileName} is empty${this.offset > 0 ? " (only whitespace)" : ""}: there is nothing to train on.`);
    }
    if (this.kind === "text" && this.limits.encoding === "utf-8" && this.need > 0) this.badUtf8(this.leadAt, "ends in the middle of a character");
    if (this.limits.shape === "lines") return;
    if (this.kind === "text" && !this.headerDone) this.finishHeader();
    if (this.lineHasContent) this.contentLines++;
    this.lineHasContent = false;
    if (this.kind === "text" && this.contentLines === 1) {
      throw refuse("header_only", `${this.fileName} has a header but no data rows: there is nothing to train on. Export the table again with its rows.`);
    }
  }

  private finishHeader(): void {
    this.headerDone = true;
    const text = Buffer.from(this.header).toString(this.limits.encoding === "latin-1" ? "latin1" : "utf8");
    this.header = [];
    const n = headerFields(text).length; // split on the delimiter that gives the most fields
    if (n > this.limits.maxColumns) {
      throw refuse("too_many_columns", `${this.fileName} has ${n.toLocaleString("en")} columns, more than the limit of ${this.limits.maxColumns.toLocaleString("en")} (Settings → Data).`, {
        columns: n,
        limit: this.limits.maxColumns,
      });
    }
  }

  private utf8(b: number, at: number): void {
    if (this.need > 0) {
      if ((b & 0xc0) !== 0x80) this.badUtf8(this.leadAt, "has a broken multi-byte character");
      this.need--;
      return;
    }
    if (b < 0x80) return;
    this.leadAt = at;
    if (b >= 0xc2 && b <= 0xdf) this.need = 1;
    else if (b >= 0xe0 && b <= 0xef) this.need = 2;
    else if (b >= 0xf0 && b <= 0xf4) this.need = 3;
    else this.badUtf8(at, `has the byte 0x${b.toString(16).padStart(2, "0")}, which is not UTF-8`);
  }

  private badUtf8(at: number, what: string): never {
    throw refuse("invalid_utf8", `${this.fileName} is not valid UTF-8: line ${this.line} ${what} (offset ${at}). If it was saved by an older program it is probably Latin-1: read it as Latin-1.`, {
      offset: at,
      line: this.line,
      suggestion: "latin-1",
    });
  }
}
