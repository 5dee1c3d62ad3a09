/** Downloads an experiment's verified export, checking the SHA-256 the server states. */
import { createHash } from "node:crypto";
import { createWriteStream, mkdirSync, renameSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ExperimentDetailView } from "@/server/experiments/experiment-views";
import { exportNames } from "@/server/experiments/export-names";
import { CliError } from "../cli-error";
import { unreachableError, type Connection } from "../api-client";

/** What to fetch (a path on the server), the SHA-256 it must have, and the file name to save it under. */
export interface VerifiedDownload {
  urlPath: string;
  sha256: string;
  /** Default: the name the server gives the download (the browser's), when it is a plain file name. */
  fileName?: string;
}

// Only a bare name is taken from a header: no folders, no dot files, nothing to quote.
const SAFE_NAME = /filename="([A-Za-z0-9_-][A-Za-z0-9._-]{0,119})"/;

function serverFileName(res: Response, sha256: string): string {
  return SAFE_NAME.exec(res.headers.get("content-disposition") ?? "")?.[1] ?? `export-${sha256.slice(0, 12)}.tar.gz`;
}

/** Saves `d` into `outDir` only when its bytes hash to `d.sha256` (written as .part, renamed after the check). */
export async function downloadVerified(conn: Connection, d: VerifiedDownload, outDir: string, log: (l: string) => void): Promise<string> {
  const res = await fetch(`${conn.url}${d.urlPath}`, { headers: conn.headers }).catch((err: unknown) => {
    throw unreachableError(err);
  });
  if (!res.ok || !res.body) {
    // A refusal cut off mid-body still reports its status.
    const body = await res.text().catch((err: unknown) => `(the answer broke off: ${(err as Error).message})`);
    throw new CliError(`Downloading the export failed (HTTP ${res.status}): ${body.slice(0, 300)}`, 1, "download_failed");
  }
  mkdirSync(outDir, { recursive: true });
  const file = path.resolve(outDir, d.fileName ?? serverFileName(res, d.sha256));
  const tmp = `${file}.part`;
  const hash = createHash("sha256");
  const source = Readable.fromWeb(res.body as import("node:stream/web").ReadableStream<Uint8Array>);
  source.on("data", (chunk: Buffer) => hash.update(chunk));
  await pipeline(source, createWriteStream(tmp));
  const sha = hash.digest("hex");
  if (sha !== d.sha256) throw new CliError(`The downloaded export's SHA-256 ${sha} does not match ${d.sha256}; it was not saved.`, 1, "download_corrupt");
  renameSync(tmp, file);
  log(`Saved the export to ${file} (sha256 ${sha}).`);
  return file;
}

export async function downloadExport(conn: Connection, exp: ExperimentDetailView, outDir: string, log: (l: string) => void): Promise<string> {
  if (!exp.exportSha256) throw new CliError(`Experiment ${exp.id} has no export.`, 1, "no_export");
  return downloadVerified(
    conn,
    {
      urlPath: `/api/experiments/${exp.id}/export`,
      sha256: exp.exportSha256,
      // The same name as the browser download and the model card's commands (server/experiments/export-names.ts).
      fileName: exportNames(exp.results?.export, exp.name, exp.exportSha256).fileName,
    },
    outDir,
    log,
  );
}
