/**
 * Verifies an export archive before it is sent or used (the controller-side twin of the
 * archive's own verify.py): the file's SHA-256 must equal the one recorded for the
 * experiment, and every file inside must match the archive's manifest.json — same size,
 * same SHA-256, none missing, none unlisted, no links, devices, absolute or `..` paths.
 * The archive is read as a stream (one pass, nothing extracted); entries are hashed in
 * memory chunk by chunk. An export holds one top folder with manifest.json and the files
 * it lists (exportVersion 2); archives of exportVersion 1 held them at the root.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { Parser, type ReadEntry } from "tar";
import { z } from "zod";
import { DomainError } from "@/server/errors";
import { sha256File } from "@/server/experiments/job-outputs";

const ZManifest = z.object({
  files: z.array(z.object({ path: z.string().min(1), bytes: z.number().int().nonnegative(), sha256: z.string().regex(/^[0-9a-f]{64}$/) })),
});

/** The archive on disk is not the one recorded (changed, damaged, missing): nothing is sent (409 `export_invalid`). */
export class ExportInvalid extends DomainError {
  constructor(
    readonly archive: string,
    message: string,
  ) {
    super("CONFLICT", message, { code: "export_invalid" });
    this.name = "ExportInvalid";
  }
}

export interface VerifiedExport {
  sha256: string;
  bytes: number;
  files: number;
}

interface SeenFile {
  bytes: number;
  sha256: string;
}

/** Normalises a tar entry path ("./a/b" → "a/b"); null when it is absolute or escapes. */
export function safeEntryPath(p: string): string | null {
  const trimmed = p.replace(/^\.\//, "").replace(/\/+$/, "");
  if (trimmed === "" || trimmed === ".") return "";
  if (trimmed.startsWith("/") || /^[A-Za-z]:/.test(trimmed)) return null;
  if (trimmed.split("/").some((s) => s === "..")) return null;
  return trimmed;
}

/** Compares what the archive holds with its manifest; returns the problems in words. */
export function manifestProblems(manifest: z.infer<typeof ZManifest>, seen: Map<string, SeenFile>): string[] {
  const problems: string[] = [];
  const listed = new Set<string>();
  for (const f of manifest.files) {
    listed.add(f.path);
    const got = seen.get(f.path);
    if (!got) problems.push(`${f.path} is listed in the manifest but missing`);
    else if (got.bytes !== f.bytes) problems.push(`${f.path} has ${got.bytes} bytes, the manifest says ${f.bytes}`);
    else if (got.sha256 !== f.sha256) problems.push(`${f.path} does not match its SHA-256 in the manifest`);
  }
  for (const p of seen.keys()) if (p !== "manifest.json" && !listed.has(p)) problems.push(`${p} is not listed in the manifest`);
  return problems;
}

interface ArchiveEntries {
  seen: Map<string, SeenFile>;
  manifest: Buffer | null;
  problems: string[];
}

/**
 * The archive's files relative to its one top folder ("" when manifest.json sits at the
 * root: exportVersion 1). Entries outside that folder are problems, never ignored.
 */
export function insideTopFolder(all: Map<string, SeenFile>, names: string[], manifests: Map<string, Buffer>): ArchiveEntries {
  if (all.has("manifest.json") || names.length === 0) return { seen: all, manifest: manifests.get("manifest.json") ?? null, problems: [] };
  const tops = [...new Set(names.map((n) => n.split("/")[0]!))].sort();
  if (tops.length !== 1) {
    return { seen: new Map(), manifest: null, problems: [`the archive should hold one folder with manifest.json; its top level holds ${tops.slice(0, 5).join(", ")}`] };
  }
  const top = tops[0]!;
  if (all.has(top)) return { seen: new Map(), manifest: null, problems: [`the archive's top level holds the file ${top}, not a folder`] };
  const seen = new Map<string, SeenFile>();
  for (const [p, f] of all) seen.set(p.slice(top.length + 1), f);
  return { seen, manifest: manifests.get(`${top}/manifest.json`) ?? null, problems: [] };
}

const isManifestCandidate = (rel: string) => rel.split("/").pop() === "manifest.json" && rel.split("/").length <= 2;

function readEntries(file: string): Promise<ArchiveEntries> {
  return new Promise((resolve, reject) => {
    const seen = new Map<string, SeenFile>();
    const problems: string[] = [];
    const names: string[] = [];
    const manifests = new Map<string, Buffer>();
    const parser = new Parser({ strict: true });
    parser.on("entry", (entry: ReadEntry) => {
      const rel = safeEntryPath(entry.path);
      if (rel === null) problems.push(`${entry.path} is an absolute path or leaves the archive`);
      if (rel) names.push(rel);
      if (entry.type === "Directory" || rel === "" || rel === null) {
        entry.resume();
        return;
      }
      if (entry.type !== "File" && entry.type !== "OldFile") {
        problems.push(`${rel} is a ${entry.type}, not a regular file`);
        entry.resume();
        return;
      }
      const hash = createHash("sha256");
      const chunks: Buffer[] = [];
      let bytes = 0;
      entry.on("data", (d: Buffer) => {
        hash.update(d);
        bytes += d.length;
        if (isManifestCandidate(rel)) chunks.push(d);
      });
      entry.on("end", () => {
        if (seen.has(rel)) problems.push(`${rel} appears twice`);
        seen.set(rel, { bytes, sha256: hash.digest("hex") });
        if (isManifestCandidate(rel)) manifests.set(rel, Buffer.concat(chunks));
      });
    });
    parser.on("error", reject);
    parser.on("warn", (_code: string, message: string) => problems.push(`the archive is damaged: ${message}`));
    parser.on("end", () => {
      const inside = insideTopFolder(seen, names, manifests);
      resolve({ ...inside, problems: [...problems, ...inside.problems] });
    });
    createReadStream(file).on("error", reject).pipe(parser);
  });
}

/** Throws ExportInvalid naming every problem; returns hash, size and file count when sound. */
export async function verifyExportArchive(file: string, expectedSha256: string): Promise<VerifiedExport> {
  let bytes: number;
  try {
    bytes = (await stat(file)).size;
  } catch {
    throw new ExportInvalid(file, `The export archive is missing from the controller's storage (${expectedSha256.slice(0, 12)}…); run the experiment again to rebuild it.`);
  }
  const sha256 = await sha256File(file);
  if (sha256 !== expectedSha256) {
    throw new ExportInvalid(file, `The export archive on disk has SHA-256 ${sha256}, not the recorded ${expectedSha256}: it was changed or damaged, so it is not sent.`);
  }
  let read;
  try {
    read = await readEntries(file);
  } catch (err) {
    throw new ExportInvalid(file, `The export archive cannot be read as a tar.gz file: ${(err as Error).message}`);
  }
  if (!read.manifest) {
    const why = read.problems.length ? ` (${read.problems.slice(0, 3).join("; ")})` : "";
    throw new ExportInvalid(file, `The export archive has no manifest.json, so its files cannot be verified${why}.`);
  }
  let manifest;
  try {
    manifest = ZManifest.parse(JSON.parse(read.manifest.toString("utf8")));
  } catch (err) {
    throw new ExportInvalid(file, `The export archive's manifest.json is not valid: ${(err as Error).message}`);
  }
  const problems = [...read.problems, ...manifestProblems(manifest, read.seen)];
  if (problems.length) {
    const shown = problems.slice(0, 5).join("; ");
    throw new ExportInvalid(file, `The export archive does not match its manifest: ${shown}${problems.length > 5 ? ` (and ${problems.length - 5} more)` : ""}.`);
  }
  return { sha256, bytes, files: manifest.files.length };
}
