/**
 * The export verifier against real tar.gz archives on disk (built with the `tar` package
 * the same way the export recipe lays them out: one top folder): a sound archive passes, and
 * so does an older one with its files at the root; a changed byte, an unlisted file, a
 * missing file, a second top-level entry and a wrong archive hash are each refused by name.
 */
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { c as tarCreate } from "tar";
import { afterAll, describe, expect, it } from "vitest";
import { sha256File } from "@/server/experiments/job-outputs";
import { ExportInvalid, verifyExportArchive } from "./verify-export";

const root = mkdtempSync(path.join(os.tmpdir(), "trainyard-export-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const sha = (b: string) => createHash("sha256").update(b).digest("hex");

async function archive(
  name: string,
  files: Record<string, string>,
  manifestFiles: Record<string, string> = files,
  opts: { top?: string | null; besideTop?: Record<string, string> } = {},
): Promise<{ file: string; sha256: string }> {
  const top = opts.top === undefined ? `${name}-0123456789ab` : opts.top;
  const cwd = path.join(root, name);
  const dir = top ? path.join(cwd, top) : cwd;
  mkdirSync(path.join(dir, "predictor"), { recursive: true });
  for (const [p, body] of Object.entries(files)) writeFileSync(path.join(dir, p), body);
  for (const [p, body] of Object.entries(opts.besideTop ?? {})) writeFileSync(path.join(cwd, p), body);
  const manifest = { exportVersion: top ? 2 : 1, files: Object.entries(manifestFiles).map(([p, body]) => ({ path: p, bytes: Buffer.byteLength(body), sha256: sha(body) })) };
  writeFileSync(path.join(dir, "manifest.json"), JSON.stringify(manifest));
  const file = path.join(root, `${name}.tar.gz`);
  const inTop = (p: string) => (top ? `${top}/${p}` : p);
  await tarCreate({ gzip: true, file, cwd, portable: true }, [...["manifest.json", ...Object.keys(files)].map(inTop), ...Object.keys(opts.besideTop ?? {})]);
  return { file, sha256: await sha256File(file) };
}

const good = { "predictor/model.pkl": "weights", "predict.py": "print(1)", "receipt.json": "{}" };

describe("verifyExportArchive", () => {
  it("passes a sound archive and counts its files", async () => {
    const a = await archive("good", good);
    await expect(verifyExportArchive(a.file, a.sha256)).resolves.toMatchObject({ sha256: a.sha256, files: 3 });
  });

  it("passes an older export whose files sit at the archive's root", async () => {
    const a = await archive("flat", good, good, { top: null });
    await expect(verifyExportArchive(a.file, a.sha256)).resolves.toMatchObject({ files: 3 });
  });

  it("refuses a file beside the top folder", async () => {
    const a = await archive("beside", good, good, { besideTop: { "evil.sh": "rm -rf" } });
    await expect(verifyExportArchive(a.file, a.sha256)).rejects.toThrow(/should hold one folder with manifest.json; its top level holds beside-0123456789ab, evil.sh/);
  });

  it("refuses an archive whose hash is not the recorded one", async () => {
    const a = await archive("hash", good);
    await expect(verifyExportArchive(a.file, "0".repeat(64))).rejects.toThrow(/not the recorded/);
  });

  it("refuses a file that differs from the manifest, names an unlisted and a missing file", async () => {
    const changed = await archive("changed", { ...good, "predict.py": "print(2)" }, good);
    await expect(verifyExportArchive(changed.file, changed.sha256)).rejects.toThrow(/predict.py does not match its SHA-256/);
    const extra = await archive("extra", { ...good, "evil.sh": "rm -rf" }, good);
    await expect(verifyExportArchive(extra.file, extra.sha256)).rejects.toThrow(/evil.sh is not listed/);
    const { ["receipt.json"]: _gone, ...fewer } = good;
    const missing = await archive("missing", fewer, good);
    const err = await verifyExportArchive(missing.file, missing.sha256).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExportInvalid);
    // A domain error: routes answer it 409 with the reason export_invalid.
    expect({ code: (err as ExportInvalid).code, reason: (err as ExportInvalid).reason, status: (err as ExportInvalid).httpStatus }).toEqual({ code: "CONFLICT", reason: "export_invalid", status: 409 });
    expect((err as Error).message).toMatch(/receipt.json is listed in the manifest but missing/);
  });

  it("says so when the archive is gone", async () => {
    await expect(verifyExportArchive(path.join(root, "nope.tar.gz"), "a".repeat(64))).rejects.toThrow(/missing from the controller's storage/);
  });
});
