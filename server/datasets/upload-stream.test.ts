import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { streamUploadToFile } from "./upload-stream";

const dir = () => mkdtempSync(path.join(os.tmpdir(), "ty-upload-"));
async function* chunks(parts: Buffer[], failAfter?: number) {
  let i = 0;
  for (const p of parts) {
    if (failAfter !== undefined && i++ === failAfter) throw new Error("aborted");
    yield new Uint8Array(p);
  }
}
const base = { fileName: "t.csv", content: { shape: "table" as const, encoding: "utf-8" as const, maxLineBytes: 1024, maxColumns: 100 }, maxBytes: 1024 * 1024 };

describe("streaming an upload to a temp file", () => {
  it("writes the bytes and their SHA-256", async () => {
    const d = dir();
    const parts = [Buffer.from("a,b\n"), Buffer.from("1,2\n")];
    const up = await streamUploadToFile(chunks(parts), { ...base, dir: d, expectedBytes: 8 });
    expect(readFileSync(up.tmpPath, "utf8")).toBe("a,b\n1,2\n");
    expect(up.sha256).toBe(createHash("sha256").update("a,b\n1,2\n").digest("hex"));
    expect(up.bytes).toBe(8);
  });
  it("stops at the cap, names it, and removes the partial file", async () => {
    const d = dir();
    const row = Buffer.from("1,2\n".repeat(256));
    await expect(streamUploadToFile(chunks([row, row, row]), { ...base, dir: d, maxBytes: 2048 })).rejects.toMatchObject({
      details: { code: "too_large" },
      message: expect.stringMatching(/upload cap of 2 KiB/),
    });
    expect(readdirSync(d)).toEqual([]);
  });
  it("refuses at once when Content-Length is over the cap", async () => {
    const d = dir();
    await expect(streamUploadToFile(chunks([]), { ...base, dir: d, maxBytes: 2048, expectedBytes: 4096 })).rejects.toMatchObject({ details: { code: "too_large" } });
    expect(readdirSync(d)).toEqual([]);
  });
  it("a stream that breaks, or ends short of Content-Length, is interrupted and leaves nothing", async () => {
    const d = dir();
    const parts = [Buffer.from("a,b\n"), Buffer.from("1,2\n"), Buffer.from("3,4\n")];
    await expect(streamUploadToFile(chunks(parts, 2), { ...base, dir: d })).rejects.toMatchObject({ details: { code: "interrupted" } });
    await expect(streamUploadToFile(chunks(parts), { ...base, dir: d, expectedBytes: 100 })).rejects.toMatchObject({ details: { code: "interrupted" } });
    expect(readdirSync(d)).toEqual([]);
  });
  it("without content checks, stores binary bytes (a model's weights) as they are", async () => {
    const d = dir();
    const weights = Buffer.from([0x47, 0x47, 0x55, 0x46, 0x00, 0xff, 0x0a, 0x00]);
    const up = await streamUploadToFile(chunks([weights]), { ...base, content: null, fileName: "m.gguf", dir: d });
    expect(readFileSync(up.tmpPath)).toEqual(weights);
    expect(up.kind).toBeNull();
  });
  it("a full disk (test hook) is reported as such and leaves nothing", async () => {
    const d = dir();
    const parts = [Buffer.from("a,b\n"), Buffer.from("1,2\n".repeat(100))];
    await expect(streamUploadToFile(chunks(parts), { ...base, dir: d, enospcAfterBytes: 10 })).rejects.toMatchObject({
      code: "UNAVAILABLE",
      details: { code: "disk_full" },
    });
    expect(readdirSync(d)).toEqual([]);
    expect(existsSync(d)).toBe(true);
  });
});
