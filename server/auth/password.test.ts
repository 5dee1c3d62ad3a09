import { randomBytes, scryptSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashPassword, needsRehash, verifyPassword } from "./password";

/** A hash in the format stored before the cost was raised (N=2^15). */
function oldFormatHash(password: string): string {
  const salt = randomBytes(16);
  const hash = scryptSync(password, salt, 32, { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  return ["scrypt", 1 << 15, 8, 1, salt.toString("base64url"), hash.toString("base64url")].join("$");
}

describe("owner password hashing", () => {
  it("hashes with OWASP's scrypt cost N=2^17, r=8, p=1 and verifies", async () => {
    const stored = await hashPassword("correct horse battery");
    expect(stored.split("$").slice(0, 4)).toEqual(["scrypt", "131072", "8", "1"]);
    expect(await verifyPassword("correct horse battery", stored)).toBe(true);
    expect(await verifyPassword("wrong horse battery", stored)).toBe(false);
    expect(needsRehash(stored)).toBe(false);
  });

  it("still verifies an old N=2^15 hash and says it needs rehashing", async () => {
    const old = oldFormatHash("correct horse battery");
    expect(await verifyPassword("correct horse battery", old)).toBe(true);
    expect(needsRehash(old)).toBe(true);
  });

  it("refuses a stored hash that is malformed or asks for an absurd cost", async () => {
    const old = oldFormatHash("pw-pw-pw-pw");
    const parts = old.split("$");
    expect(await verifyPassword("pw-pw-pw-pw", ["scrypt", String(1 << 24), ...parts.slice(2)].join("$"))).toBe(false);
    expect(await verifyPassword("pw-pw-pw-pw", ["scrypt", "1000", ...parts.slice(2)].join("$"))).toBe(false);
    expect(await verifyPassword("pw-pw-pw-pw", "plain")).toBe(false);
  });
});
