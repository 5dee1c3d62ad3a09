/**
 * The Target interface on both kinds of computer, in-process against the real worker
 * bundle: This computer (a child process sharing the server's store) and a server over a
 * real sshd on loopback (enrolled like an owner does: add, Test access, accept the key).
 * Each stores a blob where its layout says, reads a file its worker names, and removes the
 * blob by asking its worker (`gc` naming it), not by deleting files itself.
 */
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "@/server/config/env";
import { ensureHome } from "@/server/config/home";
import { clearControllerRuntime, setControllerRuntime, type ControllerRuntime } from "@/server/config/runtime";
import type { Db } from "@/server/db/client";
import { closePooledConnections } from "@/server/targets/ssh/ssh-pool";
import { buildWorkerBundle, makeTestHome, REPO, TEST_ENVS_DIR } from "@/server/testing/server-harness";
import { hostKeyFingerprint } from "@/server/testing/ssh-computer";
import { startSshd, type TestSshd } from "@/server/testing/sshd-harness";
import { openTestDb } from "@/server/testing/test-db";
import { ensureLocalTarget } from "./local/local-target";
import { sshComputersService } from "./ssh/ssh-computers.service";
import type { Target } from "./target";
import { targetFor } from "./target-for";
import { targetsRepository } from "./targets.repository";

let db: Db;
let closeDb: () => Promise<void>;
let sshd: TestSshd;
let scratch: string;
let local: Target;
let server: Target;

/** A file here with fresh bytes, and its SHA-256. */
function freshFile(name: string): { file: string; sha256: string; bytes: number } {
  const data = Buffer.from(`a,b\n${name},${Math.random()}\n`);
  const file = path.join(scratch, name);
  writeFileSync(file, data);
  return { file, sha256: createHash("sha256").update(data).digest("hex"), bytes: data.length };
}

beforeAll(async () => {
  const bundle = await buildWorkerBundle();
  const home = makeTestHome();
  scratch = mkdtempSync(path.join(os.tmpdir(), "trainyard-target-"));
  ({ db, close: closeDb } = await openTestDb());
  const config = loadConfig({ TRAINYARD_HOME: home.home, TRAINYARD_ENVS_DIR: TEST_ENVS_DIR, TRAINYARD_TRAINING_DIR: home.trainingDir, TRAINYARD_WORKER_BUNDLE: bundle });
  const rt: ControllerRuntime = { config, home: ensureHome(home.home), repoRoot: REPO };
  setControllerRuntime(rt);
  local = targetFor(await ensureLocalTarget(rt, db), db);

  // The "server": the worker bundle in its own directory on the far side of a real sshd.
  sshd = await startSshd();
  const workerDir = path.join(mkdtempSync(path.join(os.tmpdir(), "trainyard-remote-")), "trainyard");
  mkdirSync(path.join(workerDir, "home"), { recursive: true });
  cpSync(path.dirname(bundle), workerDir, { recursive: true });
  writeFileSync(path.join(workerDir, "home", "config.json"), JSON.stringify({ envsDir: TEST_ENVS_DIR }));
  const computers = sshComputersService(db);
  const added = await computers.add({
    name: "Lab server",
    connection: { mode: "manual", host: sshd.host, port: sshd.port, user: sshd.user, keyPath: sshd.clientKeyPath },
    workerDir,
    nodePath: process.execPath,
  });
  expect((await computers.testAccess(added.id)).hostKeyRefused).toBeTruthy();
  await computers.acceptKey({ id: added.id, fingerprint: hostKeyFingerprint(sshd) });
  server = targetFor((await targetsRepository(db).find(added.id))!, db);
}, 120_000);

afterAll(async () => {
  closePooledConnections();
  await sshd?.stop();
  clearControllerRuntime();
  await closeDb?.();
});

describe("This computer as a Target", () => {
  it("shares the server's store: a blob put there is where its layout says, read in place, removed by its worker", async () => {
    const f = freshFile("local.csv");
    // Uploads are written straight into the worker's incoming folder and handed over with put.
    mkdirSync(local.layout.incoming, { recursive: true });
    writeFileSync(local.layout.part(f.sha256), readFileSync(f.file));
    const put = await local.exec("put", { sha256: f.sha256, bytes: f.bytes });
    expect(put).toMatchObject({ complete: true, path: local.layout.blob(f.sha256) });
    // Already in the store it shares with the server: nothing moves, and no copy of its own is made.
    expect(await local.storeFile(f.file, f.sha256, f.bytes)).toEqual({ resumedFrom: f.bytes, sent: 0, ownCopy: false });
    expect(await local.withFile(put.path!, async (p) => p)).toBe(put.path);

    expect(await local.removeBlobs([f.sha256])).toEqual([{ sha256: f.sha256, outcome: "removed" }]);
    expect(existsSync(local.layout.blob(f.sha256))).toBe(false);
    expect(await local.removeBlobs([f.sha256])).toEqual([{ sha256: f.sha256, outcome: "absent" }]);
  });

  it("stores a file kept elsewhere (an export) once, copied: the file itself stays", async () => {
    const f = freshFile("kept.csv");
    expect(await local.storeFile(f.file, f.sha256, f.bytes)).toEqual({ resumedFrom: 0, sent: f.bytes, ownCopy: false });
    expect(readFileSync(local.layout.blob(f.sha256))).toEqual(readFileSync(f.file));
    expect(existsSync(f.file)).toBe(true);
    expect(await local.storeFile(f.file, f.sha256, f.bytes)).toEqual({ resumedFrom: f.bytes, sent: 0, ownCopy: false });
    expect(await local.removeBlobs([f.sha256])).toEqual([{ sha256: f.sha256, outcome: "removed" }]);
  });
});

describe("a server over SSH as a Target", () => {
  it("receives a blob over SFTP into its own store, sends a file back, and removes the blob through its worker", async () => {
    const f = freshFile("remote.csv");
    const pushed = await server.storeFile(f.file, f.sha256, f.bytes);
    expect(pushed).toEqual({ resumedFrom: 0, sent: f.bytes, ownCopy: true });
    // Loopback: the server's store is a folder on this machine, where the layout says.
    expect(readFileSync(server.layout.blob(f.sha256))).toEqual(readFileSync(f.file));
    expect(await server.storeFile(f.file, f.sha256, f.bytes)).toEqual({ resumedFrom: f.bytes, sent: 0, ownCopy: true });
    const copied = await server.withFile(server.layout.blob(f.sha256), async (p) => ({ at: p, bytes: readFileSync(p) }));
    expect(copied.at).not.toBe(server.layout.blob(f.sha256));
    expect(copied.bytes).toEqual(readFileSync(f.file));

    expect(await server.removeBlobs([f.sha256])).toEqual([{ sha256: f.sha256, outcome: "removed" }]);
    expect(existsSync(server.layout.blob(f.sha256))).toBe(false);
    expect(await server.removeBlobs([f.sha256])).toEqual([{ sha256: f.sha256, outcome: "absent" }]);
  });
});
