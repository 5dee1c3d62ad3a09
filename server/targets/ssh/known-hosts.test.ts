import { createHmac, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { fingerprintOf, hostKeyName, parseKnownHosts, verifyHostKey } from "./known-hosts";

const KEY_A = Buffer.from("ssh-ed25519 key A bytes").toString("base64");
const KEY_B = Buffer.from("ssh-ed25519 key B bytes").toString("base64");

function hashed(name: string): string {
  const salt = randomBytes(20);
  return `|1|${salt.toString("base64")}|${createHmac("sha1", salt).update(name).digest("base64")}`;
}

describe("known_hosts", () => {
  it("knows a plain entry and names a non-22 port the OpenSSH way", () => {
    const entries = parseKnownHosts(`# comment\ngpu-box,10.0.0.5 ssh-ed25519 ${KEY_A}\n[127.0.0.1]:2222 ssh-ed25519 ${KEY_B}\n`);
    expect(verifyHostKey(entries, "gpu-box", 22, "ssh-ed25519", KEY_A)).toEqual({ status: "known" });
    expect(verifyHostKey(entries, "10.0.0.5", 22, "ssh-ed25519", KEY_A)).toEqual({ status: "known" });
    expect(hostKeyName("127.0.0.1", 2222)).toBe("[127.0.0.1]:2222");
    expect(verifyHostKey(entries, "127.0.0.1", 2222, "ssh-ed25519", KEY_B)).toEqual({ status: "known" });
  });

  it("matches hashed entries", () => {
    const entries = parseKnownHosts(`${hashed("[127.0.0.1]:2222")} ssh-ed25519 ${KEY_A}\n`);
    expect(verifyHostKey(entries, "127.0.0.1", 2222, "ssh-ed25519", KEY_A).status).toBe("known");
    expect(verifyHostKey(entries, "127.0.0.1", 2223, "ssh-ed25519", KEY_A).status).toBe("unknown");
  });

  it("reports a changed key with both fingerprints, and an unknown host with its fingerprint", () => {
    const entries = parseKnownHosts(`gpu-box ssh-ed25519 ${KEY_A}\n`);
    const changed = verifyHostKey(entries, "gpu-box", 22, "ssh-ed25519", KEY_B);
    expect(changed).toEqual({ status: "changed", fingerprint: fingerprintOf(KEY_B), knownFingerprints: [fingerprintOf(KEY_A)] });
    expect(verifyHostKey(entries, "other", 22, "ssh-ed25519", KEY_B)).toEqual({ status: "unknown", fingerprint: fingerprintOf(KEY_B) });
  });

  it("honours patterns, negations, revoked keys, and skips certificate authorities", () => {
    const entries = parseKnownHosts(
      [`*.lab,!bad.lab ssh-ed25519 ${KEY_A}`, `@revoked * ssh-ed25519 ${KEY_B}`, `@cert-authority *.lab ssh-ed25519 ${KEY_B}`].join("\n"),
    );
    expect(verifyHostKey(entries, "node1.lab", 22, "ssh-ed25519", KEY_A).status).toBe("known");
    expect(verifyHostKey(entries, "bad.lab", 22, "ssh-ed25519", KEY_A).status).toBe("unknown");
    expect(verifyHostKey(entries, "node1.lab", 22, "ssh-ed25519", KEY_B).status).toBe("revoked");
  });

  it("formats fingerprints exactly like ssh-keygen -l", () => {
    // A real ed25519 public key and the fingerprint `ssh-keygen -lf` printed for it.
    const key = "AAAAC3NzaC1lZDI1NTE5AAAAIIVxs023vbcBaBobfahbH0O7ObK28wUraiN9ZHPh+evF";
    expect(fingerprintOf(key)).toBe("SHA256:lY7gv23hCfynFYlfU/mkQStwOPiGqM5/ctSCXRwwDlk");
  });
});
