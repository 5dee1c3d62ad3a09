// Verify a job's output manifest before the job may succeed: manifest.json parses, every
// path is relative and stays inside the output dir (no absolute paths, no `..`, no
// symlinked component), every file is a regular file with no other hard link whose size
// and SHA-256 match, and the count and total size stay under the configured caps.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { sha256File } from "../fsx";
import type { TManifestEntry } from "../../../contracts/worker/responses";

const MAX_MANIFEST_BYTES = 16 * 1024 * 1024;
const ZManifest = z.object({
  files: z.array(z.object({ path: z.string().min(1), bytes: z.number().int().nonnegative(), sha256: z.string().regex(/^[0-9a-f]{64}$/) })),
});

export type ManifestCheck =
  | { ok: true; files: TManifestEntry[]; outputSha256: string; totalBytes: number }
  | { ok: false; problem: string };

export function unsafeRelativePath(p: string): string | null {
  if (path.isAbsolute(p) || p.startsWith("/") || p.includes("\\")) return `absolute or backslash path ${JSON.stringify(p)}`;
  const parts = p.split("/");
  if (parts.some((s) => s === ".." || s === "." || s === "")) return `path ${JSON.stringify(p)} has an empty, '.' or '..' segment`;
  if (p.includes("\0")) return `path with a NUL byte`;
  return null;
}

// Outputs are frozen read-only (chmod 0444) once verified; a hard link shares its inode
// with a file elsewhere (an input, a user's file), which that chmod would change too and
// which could be rewritten later under the output's hash. Copy instead of linking.
function hardLinkProblem(p: string, nlink: number): string {
  return `output ${p} has ${nlink} hard links (it is also a file outside the job's output); outputs must be their own files: copy it instead of linking it`;
}

export async function verifyManifest(outputDir: string, caps: { maxFiles: number; maxBytes: number }): Promise<ManifestCheck> {
  const file = path.join(outputDir, "manifest.json");
  const st = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!st) return { ok: false, problem: "the recipe exited 0 but wrote no manifest.json in its output dir" };
  if (!st.isFile()) return { ok: false, problem: "manifest.json is not a regular file" };
  if (st.nlink > 1) return { ok: false, problem: hardLinkProblem("manifest.json", st.nlink) };
  if (st.size > MAX_MANIFEST_BYTES) return { ok: false, problem: `manifest.json is ${st.size} bytes (cap ${MAX_MANIFEST_BYTES})` };
  const raw = fs.readFileSync(file);
  let parsed;
  try {
    parsed = ZManifest.safeParse(JSON.parse(raw.toString("utf8")));
  } catch (err) {
    return { ok: false, problem: `manifest.json is not JSON: ${(err as Error).message}` };
  }
  if (!parsed.success) return { ok: false, problem: `manifest.json does not match {files:[{path,bytes,sha256}]}: ${parsed.error.issues[0]?.message}` };
  const files = parsed.data.files;
  if (files.length > caps.maxFiles) return { ok: false, problem: `manifest lists ${files.length} files (cap ${caps.maxFiles})` };
  const seen = new Set<string>();
  let total = 0;
  for (const f of files) {
    const bad = unsafeRelativePath(f.path);
    if (bad) return { ok: false, problem: `manifest entry refused: ${bad}` };
    if (f.path === "manifest.json") return { ok: false, problem: "the manifest must not list itself" };
    if (seen.has(f.path)) return { ok: false, problem: `manifest lists ${f.path} twice` };
    seen.add(f.path);
    // lstat every component so a symlinked directory cannot lead outside the output dir.
    const parts = f.path.split("/");
    for (let i = 1; i <= parts.length; i++) {
      const p = path.join(outputDir, ...parts.slice(0, i));
      const s = fs.lstatSync(p, { throwIfNoEntry: false });
      if (!s) return { ok: false, problem: `manifest lists ${f.path}, which does not exist` };
      if (s.isSymbolicLink()) return { ok: false, problem: `manifest entry ${f.path} goes through a symlink (${parts.slice(0, i).join("/")})` };
      if (i === parts.length && !s.isFile()) return { ok: false, problem: `manifest entry ${f.path} is not a regular file` };
      if (i === parts.length && s.nlink > 1) return { ok: false, problem: hardLinkProblem(f.path, s.nlink) };
    }
    const full = path.join(outputDir, f.path);
    total += f.bytes;
    if (total > caps.maxBytes) return { ok: false, problem: `outputs exceed ${caps.maxBytes} bytes` };
    const actual = await sha256File(full);
    if (actual.bytes !== f.bytes) return { ok: false, problem: `${f.path}: manifest says ${f.bytes} bytes, file has ${actual.bytes}` };
    if (actual.sha256 !== f.sha256) return { ok: false, problem: `${f.path}: SHA-256 does not match the manifest` };
  }
  const outputSha256 = crypto.createHash("sha256").update(raw).digest("hex");
  return { ok: true, files, outputSha256, totalBytes: total };
}

/** Make verified outputs read-only so a hash reference keeps meaning the same bytes. */
export function freezeOutputs(outputDir: string, files: TManifestEntry[]): void {
  for (const f of files) fs.chmodSync(path.join(outputDir, f.path), 0o444);
  fs.chmodSync(path.join(outputDir, "manifest.json"), 0o444);
}
