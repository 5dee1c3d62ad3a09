/** Downloads an experiment's verified export, checking the SHA-256 the server states. */
import { createHash } from "node:crypto";
import { createWriteStream, mkdirSync, renameSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ExperimentDetailView } from "@/server/experiments/experiment-views";
import { CliError } from "../cli-error";
import type { Connection } from "../api-client";

export async function downloadExport(conn: Connection, exp: ExperimentDetailView, outDir: string, log: (l: string) => void): Promise<string> {
  if (!exp.exportSha256) throw new CliError(`Experiment ${exp.id} has no export.`);
  const res = await fetch(`${conn.url}/api/experiments/${exp.id}/export`, { headers: conn.headers });
  if (!res.ok || !res.body) {
    const body = await res.text().catch(() => "");
    throw new CliError(`Downloading the export failed (HTTP ${res.status}): ${body.slice(0, 300)}`);
  }
  mkdirSync(outDir, { recursive: true });
  const file = path.resolve(outDir, `trainyard-export-${exp.id}.tar.gz`);
  const tmp = `${file}.part`;
  const hash = createHash("sha256");
  const source = Readable.fromWeb(res.body as import("node:stream/web").ReadableStream<Uint8Array>);
  source.on("data", (d: Buffer) => hash.update(d));
  await pipeline(source, createWriteStream(tmp));
  const sha = hash.digest("hex");
  if (sha !== exp.exportSha256) throw new CliError(`The downloaded export's SHA-256 ${sha} does not match ${exp.exportSha256}; it was not saved.`);
  renameSync(tmp, file);
  log(`Saved the export to ${file} (sha256 ${sha}).`);
  return file;
}
