/**
 * Random bearer secrets (API tokens, login sessions). Only a SHA-256 of a secret is
 * stored; lookups go by that hash and the final comparison is constant-time.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

export function newSecret(prefix: string): string {
  return `${prefix}_${randomBytes(24).toString("base64url")}`;
}

export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && timingSafeEqual(x, y);
}
