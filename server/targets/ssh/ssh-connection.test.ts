import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readIdentityFiles } from "./ssh-connection";

describe("which key files can be used", () => {
  it("uses plain keys, names keys with a passphrase (for ssh-agent) by path only, skips missing ones", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "keys-"));
    const plain = path.join(dir, "plain");
    const locked = path.join(dir, "locked");
    spawnSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", plain]);
    spawnSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "s3cret-passphrase", "-f", locked]);
    writeFileSync(path.join(dir, "junk"), "not a key");
    const r = readIdentityFiles([plain, locked, path.join(dir, "junk"), path.join(dir, "missing")]);
    expect(r.keys.map((k) => k.file)).toEqual([plain]);
    expect(r.skipped).toEqual([`${locked} (has a passphrase: add it to ssh-agent)`, `${path.join(dir, "junk")} (not a private key)`]);
    expect(r.skipped.join(" ")).not.toContain("s3cret");
  });
});
