import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
// The worker's own layout, the truth this copy must match (tests may read worker code; the server may not).
import { loadConfig } from "@/worker/src/config";
import { Home } from "@/worker/src/home";
import { remoteWorkerLayout, workerLayout } from "./layout";

const SHA = "ab".repeat(32);

describe("the worker layout the server derives", () => {
  it("names the same store, parts and receipts as the worker's Home", () => {
    const home = new Home(loadConfig(mkdtempSync(path.join(os.tmpdir(), "trainyard-layout-"))));
    const layout = workerLayout(home.root);
    expect(layout.blob(SHA)).toBe(home.blob(SHA));
    expect(layout.part(SHA)).toBe(home.part(SHA));
    expect(layout.store).toBe(home.p("store"));
    expect(layout.incoming).toBe(home.p("incoming"));
    expect(path.join(layout.receipts, "j1-a.json")).toBe(home.receipt("j1-a"));
    expect(path.join(layout.jobs, "j1-a")).toBe(home.jobDir("j1-a"));
  });

  it("puts a server's worker home under its worker directory, in POSIX paths", () => {
    const layout = remoteWorkerLayout("~/trainyard/");
    expect(layout.home).toBe("~/trainyard/home");
    expect(layout.blob(SHA)).toBe(`~/trainyard/home/store/ab/${SHA}`);
    expect(layout.part(SHA)).toBe(`~/trainyard/home/incoming/${SHA}.part`);
  });

  it("never makes a path from something that is not a SHA-256", () => {
    const layout = workerLayout("/srv/worker");
    expect(() => layout.blob("../../etc/passwd")).toThrow(/not a SHA-256/);
    expect(() => layout.part(`${SHA}/x`)).toThrow(/not a SHA-256/);
  });
});
