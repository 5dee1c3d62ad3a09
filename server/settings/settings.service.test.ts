// Data settings on a real SQLite file: defaults, revisions, folder checks, and the
// local worker's config.json following the allowed folders.
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/server/db/client";
import { openTestDb } from "@/server/testing/test-db";
import { settingsService } from "./settings.service";

let db: Db;
let close: () => Promise<void>;
const tmp = mkdtempSync(path.join(os.tmpdir(), "ty-settings-"));
const workerHome = path.join(tmp, "worker");
const data = path.join(tmp, "data");

beforeAll(async () => {
  ({ db, close } = await openTestDb());
  mkdirSync(workerHome);
  mkdirSync(data);
  // A config the controller wrote at start: its other fields must survive.
  writeFileSync(path.join(workerHome, "config.json"), JSON.stringify({ trainingDir: "/opt/training" }));
});
afterAll(async () => close?.());

const config = () => JSON.parse(readFileSync(path.join(workerHome, "config.json"), "utf8")) as Record<string, unknown>;

describe("data settings", () => {
  it("start with no allowed folder, a 2 GiB upload cap and the recipe's limits", async () => {
    const s = await settingsService(db, { workerHome }).get();
    expect(s).toMatchObject({ revision: 0, values: { allowedRoots: [], uploadMaxBytes: 2 * 1024 ** 3, maxLineBytes: 10 * 1024 ** 2, maxColumns: 10_000 } });
    // Absent means none to the worker too: the file is left as it was.
    expect(config()).toEqual({ trainingDir: "/opt/training" });
  });

  it("saving folders rewrites the worker's allowedRoots and keeps its other fields", async () => {
    const svc = settingsService(db, { workerHome });
    const s = await svc.get();
    const saved = await svc.update({ revision: s.revision, values: { ...s.values, allowedRoots: [`${data}/`] } });
    expect(saved.revision).toBe(1);
    expect(saved.values.allowedRoots).toEqual([data]);
    expect(config()).toEqual({ trainingDir: "/opt/training", allowedRoots: [data] });
  });

  it("a stale revision is a CONFLICT; a missing folder, a file or the whole disk is refused", async () => {
    const svc = settingsService(db, { workerHome });
    const s = await svc.get();
    await expect(svc.update({ revision: 0, values: s.values })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(svc.update({ revision: s.revision, values: { ...s.values, allowedRoots: [path.join(tmp, "nope")] } })).rejects.toThrow(/does not exist/);
    writeFileSync(path.join(tmp, "file.txt"), "x");
    await expect(svc.update({ revision: s.revision, values: { ...s.values, allowedRoots: [path.join(tmp, "file.txt")] } })).rejects.toThrow(/not a folder/);
    await expect(svc.update({ revision: s.revision, values: { ...s.values, allowedRoots: ["/"] } })).rejects.toThrow(/whole disk/);
    await expect(svc.update({ revision: s.revision, values: { ...s.values, allowedRoots: ["relative/dir"] } })).rejects.toThrow(/absolute/);
    expect((await svc.get()).revision).toBe(s.revision);
  });

  it("refuses a system folder, an SSH folder or Trainyard's home as BAD_INPUT naming the folder, the reason and the field", async () => {
    const userHome = path.join(tmp, "user");
    const trainyardHome = path.join(tmp, "ty-home");
    mkdirSync(path.join(userHome, ".ssh"), { recursive: true });
    mkdirSync(path.join(trainyardHome, "datasets"), { recursive: true });
    symlinkSync("/etc", path.join(data, "etc-link"));
    const svc = settingsService(db, { workerHome, rules: { userHome, trainyardHome } });
    const s = await svc.get();
    const save = (root: string) => svc.update({ revision: s.revision, values: { ...s.values, allowedRoots: [data, root] } });
    await expect(save("/etc")).rejects.toMatchObject({
      code: "BAD_INPUT",
      message: expect.stringMatching(/^The folder \/etc cannot be allowed: it is the system folder \/etc/),
      details: { field: "allowedRoots", root: "/etc" },
    });
    await expect(save(path.join(data, "etc-link"))).rejects.toThrow(/etc-link cannot be allowed: .*it leads to \/etc/);
    await expect(save(path.join(userHome, ".ssh"))).rejects.toThrow(/credentials folder \(\.ssh\)/);
    await expect(save(path.join(trainyardHome, "datasets"))).rejects.toThrow(/inside Trainyard's own home/);
    await expect(save(tmp)).rejects.toThrow(/contains Trainyard's own home/);
    expect((await svc.get()).revision).toBe(s.revision);
    expect(config().allowedRoots).toEqual([data]);
  });

  it("leaves a saved folder that the rules now refuse out of force, and says so", async () => {
    const svc = settingsService(db, { workerHome });
    const s = await svc.get();
    // A row saved before the rule existed.
    await db.setting.update({ where: { key: "data" }, data: { value: JSON.stringify({ ...s.values, allowedRoots: [data, "/etc"] }) } });
    const view = await svc.get();
    expect(view.values.allowedRoots).toEqual([data]);
    expect(view.refusedRoots).toEqual([{ root: "/etc", reason: expect.stringMatching(/system folder \/etc/) }]);
    expect(config().allowedRoots).toEqual([data]);
  });
});
