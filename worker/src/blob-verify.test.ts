// A store blob is trusted by name only within the boot it was hashed in; on its first use
// under another boot id it is hashed again, and one whose bytes changed is moved aside.
// Real files; the boot id is passed in (the worker reads /proc/sys/kernel/random/boot_id).
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { markVerified, verifyBlobForBoot } from "./blob-verify";
import { loadConfig } from "./config";
import { WorkerError } from "./errors";
import { Home } from "./home";
import { storeBlob } from "./store-blob";

let dir: string;
let home: Home;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "trainyard-blob-"));
  home = new Home(loadConfig(dir));
  home.ensure();
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function stored(data: string): string {
  const sha = crypto.createHash("sha256").update(data).digest("hex");
  const tmp = path.join(dir, "incoming", "x.tmp");
  fs.writeFileSync(tmp, data);
  storeBlob(home, tmp, sha);
  return sha;
}

function damage(sha: string, data: string): void {
  fs.chmodSync(home.blob(sha), 0o644);
  fs.writeFileSync(home.blob(sha), data);
}

describe("store blob re-verification after a reboot", () => {
  it("is not hashed again within the boot it was verified in", async () => {
    const sha = stored("a,b\n1,2\n");
    markVerified(home, sha, "boot-A");
    damage(sha, "a,b\n1,3\n"); // not noticed: this boot already checked it
    expect(await verifyBlobForBoot(home, sha, "boot-A")).toEqual({ hashed: false });
  });

  it("is hashed on first use under a new boot id, and then trusted for that boot", async () => {
    const sha = stored("a,b\n1,2\n");
    markVerified(home, sha, "boot-A");
    expect(await verifyBlobForBoot(home, sha, "boot-B")).toEqual({ hashed: true });
    expect(await verifyBlobForBoot(home, sha, "boot-B")).toEqual({ hashed: false });
  });

  it("whose bytes changed before the reboot is refused and moved out of the store's lookups", async () => {
    const sha = stored("a,b\n1,2\n");
    markVerified(home, sha, "boot-A");
    damage(sha, "a,b\n1,3\n");
    const err = await verifyBlobForBoot(home, sha, "boot-B").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkerError);
    expect((err as WorkerError).code).toBe("hash_mismatch");
    expect(fs.existsSync(home.blob(sha))).toBe(false);
    const aside = fs.readdirSync(path.dirname(home.blob(sha))).filter((f) => f.startsWith(`${sha}.corrupt-`));
    expect(aside).toHaveLength(1);
  });

  it("storing a blob records it as verified in the current boot", async () => {
    const sha = stored("x\n");
    expect(await verifyBlobForBoot(home, sha)).toEqual({ hashed: false });
  });
});
