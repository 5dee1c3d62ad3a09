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

export async function downloadExport(conn: Connection, exp: ExperimentDetailView, outDir: string, log: (l: string) => void): Promise<string> {
  if (!exp.exportSha256) throw new CliError(`Experiment ${exp.id} has no export.`, 1, "no_export");
  const res = await fetch(`${conn.url}/api/experiments/${exp.id}/export`, { headers: conn.headers }).catch((err: unknown) => {
    throw unreachableError(err);
  });
  if (!res.ok || !res.body) {
    const body = await res.text().catch(() => "");
    throw new CliError(`Downloading the export failed (HTTP ${res.status}): ${body.slice(0, 300)}`, 1, "download_failed");
  }
  mkdirSync(outDir, { recursive: true });
  // The same name as the browser download and the model card's commands (server/experiments/export-names.ts).
  const file = path.resolve(outDir, exportNames(exp.results?.export, exp.name, exp.exportSha256).fileName);
  const tmp = `${file}.part`;
  const hash = createHash("sha256");
  const source = Readable.fromWeb(res.body as import("node:stream/web").ReadableStream<Uint8Array>);
  source.on("data", (d: Buffer) => hash.update(d));
  await pipeline(source, createWriteStream(tmp));
  const sha = hash.digest("hex");
  if (sha !== exp.exportSha256) throw new CliError(`The downloaded export's SHA-256 ${sha} does not match ${exp.exportSha256}; it was not saved.`, 1, "download_corrupt");
  renameSync(tmp, file);
  log(`Saved the export to ${file} (sha256 ${sha}).`);
  return file;
}
