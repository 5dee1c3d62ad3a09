/**
 * The bounded tail get_job_logs answers with: the log's size first, then one read of at
 * most TAIL_BYTES from its end (jobs.logs reads by byte offset, at most 64 KiB a call), cut
 * to whole lines, the last `maxLines` of them, each at most MAX_LOG_LINE_CHARS long. A log
 * of any size costs two small requests.
 */
import { MAX_LOG_LINE_CHARS } from "./tool-shapes";

/** What is read from the end of a log; jobs.logs refuses more per call (MAX_LOG_READ_BYTES). */
export const TAIL_BYTES = 64 * 1024;

export interface LogChunk {
  data: string;
  size: number;
  eof: boolean;
}

export interface LogTail {
  lines: string[];
  truncated: boolean;
  eof: boolean;
}

/**
 * The last `maxLines` whole lines of `data`. `fromMiddle`: the read began inside the log,
 * so its first line is a fragment and is dropped.
 */
export function tailLines(data: string, fromMiddle: boolean, maxLines: number): { lines: string[]; truncated: boolean } {
  const all = data.split("\n");
  if (all.at(-1) === "") all.pop();
  if (fromMiddle) all.shift();
  const lines = all.slice(-maxLines).map((l) => (l.length > MAX_LOG_LINE_CHARS ? `${l.slice(0, MAX_LOG_LINE_CHARS)}…` : l));
  return { lines, truncated: fromMiddle || all.length > lines.length };
}

/** Reads the tail through `read(offset, maxBytes)` (jobs.logs). */
export async function readLogTail(read: (offset: number, maxBytes: number) => Promise<LogChunk>, maxLines: number): Promise<LogTail> {
  const probe = await read(0, 1);
  const offset = Math.max(0, probe.size - TAIL_BYTES);
  const chunk = probe.size <= 1 ? probe : await read(offset, TAIL_BYTES);
  return { ...tailLines(chunk.data, offset > 0, maxLines), eof: chunk.eof };
}
