// Resolve `"sha256:<64 hex>"` strings in a job input to absolute read-only paths
// (contracts.md): a blob in this worker's store first, else the output dir of a
// succeeded job whose manifest.json has that hash. Anything else is `missing_input`.
import fs from "node:fs";
import { WorkerError } from "./errors";
import { readText } from "./fsx";
import type { Home } from "./home";
import { readReceipt } from "./receipts";

const REF = /^sha256:([0-9a-f]{64})$/;

export function resolveRef(home: Home, sha: string): string | null {
  const blob = home.blob(sha);
  if (fs.existsSync(blob)) return blob;
  const idx = readText(home.outputIndex(sha));
  if (!idx) return null;
  try {
    const { jobId, outputDir } = JSON.parse(idx) as { jobId: string; outputDir: string };
    const r = readReceipt(home, jobId);
    return r.state === "succeeded" && r.outputSha256 === sha && fs.existsSync(outputDir) ? outputDir : null;
  } catch {
    return null;
  }
}

export function resolveInput(home: Home, input: unknown): { resolved: unknown; refs: string[] } {
  const refs = new Set<string>();
  const missing = new Set<string>();
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") {
      const m = REF.exec(v);
      if (!m) return v;
      const sha = m[1]!;
      const p = resolveRef(home, sha);
      if (!p) missing.add(sha);
      else refs.add(sha);
      return p ?? v;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  const resolved = walk(input);
  if (missing.size) {
    const list = [...missing];
    throw new WorkerError("missing_input", `input references ${list.length} hash(es) this worker does not hold: ${list.map((s) => s.slice(0, 12)).join(", ")} (put them first)`, { missing: list });
  }
  return { resolved, refs: [...refs] };
}
