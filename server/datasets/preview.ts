/**
 * The first rows of a snapshot, read straight from the store by the worker's `peek`
 * (no job, so they show while the profile runs), parsed by the server's one CSV reader:
 * a quoted line break stays inside its cell, and a record cut off where the peek stopped
 * is left out.
 */
import { guessDelimiter, parseRecords } from "@/server/tables/csv";
import type { LoraExamples } from "@/contracts/recipes/llm-lora";
import type { PreviewView } from "./datasets.schema";

const looksBinary = (first: string) => first.startsWith("\u001f\ufffd") || first.startsWith("\u001f\u008b") || first.startsWith("PAR1");

export function previewFromLines(
  datasetId: string,
  lines: string[],
  truncated: boolean,
  tableFormat: { delimiter?: string; header?: boolean; format?: string } | null,
): PreviewView {
  const first = lines[0] ?? "";
  if (tableFormat?.format === "parquet" || tableFormat?.format === "csv.gz" || looksBinary(first)) {
    return { datasetId, kind: "binary", delimiter: null, header: [], rows: [], truncated, note: "This file is compressed or in Parquet format: its columns show once the profile has read it.", conversations: [] };
  }
  const delimiter = tableFormat?.delimiter ?? guessDelimiter(first);
  const records = parseRecords(lines.join("\n"), { delimiter });
  const hasHeader = tableFormat?.header ?? true;
  const header = hasHeader ? (records[0] ?? []) : (records[0] ?? []).map((_, i) => `column ${i + 1}`);
  return { datasetId, kind: "table", delimiter, header, rows: hasHeader ? records.slice(1) : records, truncated, note: null, conversations: [] };
}

/** An examples dataset's preview: its first conversations, once profile_examples has read them. */
export function previewOfExamples(datasetId: string, examples: LoraExamples | null, status: string): PreviewView {
  const note = examples
    ? `${examples.lines.usable.toLocaleString("en")} usable examples (${examples.formats.join(", ")}); the first ${examples.preview.length} are shown.`
    : status === "failed"
      ? "The examples could not be read."
      : "The examples show once they have been read.";
  return { datasetId, kind: "examples", delimiter: null, header: [], rows: [], truncated: false, note, conversations: examples?.preview ?? [] };
}
