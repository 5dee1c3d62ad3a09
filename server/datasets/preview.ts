/**
 * The first rows of a snapshot, read straight from the store by the worker's `peek`
 * (no job, so they show while the profile runs). Lines are split here with a small
 * quote-aware splitter: a preview, not a parser (quoted line breaks show as cut rows).
 */
import type { PreviewView } from "./datasets.schema";

export function splitDelimited(line: string, delimiter: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"' && cur === "") quoted = true;
    else if (ch === delimiter) {
      out.push(cur);
      cur = "";
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

export function guessDelimiter(header: string): string {
  const candidates = [",", "\t", ";", "|"];
  let best = ",";
  let bestCount = 0;
  for (const c of candidates) {
    const n = header.split(c).length - 1;
    if (n > bestCount) {
      best = c;
      bestCount = n;
    }
  }
  return best;
}

const looksBinary = (first: string) => first.startsWith("\u001f\ufffd") || first.startsWith("\u001f\u008b") || first.startsWith("PAR1");

export function previewFromLines(
  datasetId: string,
  lines: string[],
  truncated: boolean,
  tableFormat: { delimiter?: string; header?: boolean; format?: string } | null,
): PreviewView {
  const first = lines[0] ?? "";
  if (tableFormat?.format === "parquet" || tableFormat?.format === "csv.gz" || looksBinary(first)) {
    return { datasetId, kind: "binary", delimiter: null, header: [], rows: [], truncated, note: "This file is compressed or in Parquet format: its columns show once the profile has read it." };
  }
  const delimiter = tableFormat?.delimiter ?? guessDelimiter(first);
  const split = lines.map((l) => splitDelimited(l.replace(/\r$/, ""), delimiter));
  const hasHeader = tableFormat?.header ?? true;
  const header = hasHeader ? (split[0] ?? []) : (split[0] ?? []).map((_, i) => `column ${i + 1}`);
  return { datasetId, kind: "table", delimiter, header, rows: hasHeader ? split.slice(1) : split, truncated, note: null };
}
