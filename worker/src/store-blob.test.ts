// A blob's bytes reach the disk before its name does: the file is fsynced before it is
// renamed into the store, and the store folder after. The real calls run; the test only
// records their order (which file each fsync was for, via /proc/self/fd).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { loadConfig } from "./config";
import { Home } from "./home";
import { storeBlob } from "./store-blob";
import { inOrder, recordDurability } from "../testing/durability";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "trainyard-store-"));
});
afterEach(() => {
  vi.restoreAllMocks();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("storeBlob", () => {
  it("fsyncs the file before renaming it into the store, and the folder after", () => {
    const home = new Home(loadConfig(dir));
    home.ensure();
    const src = path.join(dir, "incoming", "part");
    fs.writeFileSync(src, "bytes\n");
    const sha = "a".repeat(64);
    const calls = recordDurability();
    const dest = storeBlob(home, src, sha);
    const expected = [`fsync ${fs.realpathSync(path.dirname(src))}/part`, `rename ${src} -> ${dest}`, `fsync ${fs.realpathSync(path.dirname(dest))}`];
    expect(inOrder(calls, expected), calls.join("\n")).toBe(true);
    expect(fs.statSync(dest).mode & 0o777).toBe(0o444);
  });
});
