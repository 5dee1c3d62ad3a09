// The local worker's config.json is replaced durably: temp file fsynced, renamed over,
// folder fsynced; other writers' fields are kept, no temp file is left, mode stays 0600.
// Real files; the fsync/rename calls run for real and are only recorded.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { inOrder, recordDurability } from "@/worker/testing/durability";
import { mergeWorkerConfig, readWorkerConfig } from "./worker-config-file";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "trainyard-wcfg-"));
});
afterEach(() => {
  vi.restoreAllMocks();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("worker config.json", () => {
  it("is written as temp + fsync + rename + fsync of the folder, keeping the other writer's fields", () => {
    mergeWorkerConfig(dir, { trainingDir: "/opt/training" });
    const calls = recordDurability();
    expect(mergeWorkerConfig(dir, { allowedRoots: ["/data"] })).toBe(true);
    const file = path.join(dir, "config.json");
    const rename = calls.find((c) => c.startsWith("rename "))!;
    const tmp = rename.slice("rename ".length, rename.indexOf(" -> "));
    expect(path.dirname(tmp)).toBe(dir);
    expect(inOrder(calls, [`fsync ${fs.realpathSync(dir)}/${path.basename(tmp)}`, `rename ${tmp} -> ${file}`, `fsync ${fs.realpathSync(dir)}`]), calls.join("\n")).toBe(true);
    expect(readWorkerConfig(dir)).toEqual({ trainingDir: "/opt/training", allowedRoots: ["/data"] });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(dir)).toEqual(["config.json"]);
  });
});
