/**
 * Owner password hashing with scrypt (node:crypto, no native module). The stored form
 * is self-describing: `scrypt$N$r$p$salt$hash` (base64url), so the cost can grow: a hash
 * made with other parameters still verifies, and `needsRehash` tells the caller to store a
 * new one after the next successful sign-in. Cost: OWASP's N=2^17, r=8, p=1, which needs
 * 128 MiB and about half a second of one core per check (callers bound how many run at once).
 */
import { randomBytes, scrypt as scryptCb, timingSafeEqual } from "node:crypto";
import { promisify } from "node:util";

const scrypt = promisify(scryptCb) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

export const SCRYPT_PARAMS = { N: 1 << 17, r: 8, p: 1 } as const;
const KEYLEN = 32;
export const MIN_PASSWORD_LENGTH = 10;
// A stored hash asking for more than this is refused rather than computed (1 GiB per check).
const MAX_N = 1 << 20;

interface StoredHash {
  N: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}

const STORED = /^scrypt\$(\d{1,8})\$(\d{1,2})\$(\d{1,2})\$([A-Za-z0-9_-]{16,})\$([A-Za-z0-9_-]{16,})$/;

function parseStored(stored: string): StoredHash | null {
  const m = STORED.exec(stored);
  if (!m) return null;
  const [N, r, p] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const powerOfTwo = N >= 2 && (N & (N - 1)) === 0;
  if (!powerOfTwo || N > MAX_N || r < 1 || r > 32 || p < 1 || p > 16) return null;
  return { N, r, p, salt: Buffer.from(m[4]!, "base64url"), hash: Buffer.from(m[5]!, "base64url") };
}

/** scrypt needs 128·N·r bytes (plus 128·r·p); the margin keeps Node's own bookkeeping in. */
function maxmem(N: number, r: number, p: number): number {
  return 128 * N * r + 128 * r * p + 16 * 1024 * 1024;
}

export async function hashPassword(password: string): Promise<string> {
  const { N, r, p } = SCRYPT_PARAMS;
  const salt = randomBytes(16);
  const hash = await scrypt(password, salt, KEYLEN, { N, r, p, maxmem: maxmem(N, r, p) });
  return ["scrypt", N, r, p, salt.toString("base64url"), hash.toString("base64url")].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseStored(stored);
  if (!parsed) return false;
  const { N, r, p, salt, hash } = parsed;
  const actual = await scrypt(password, salt, hash.length, { N, r, p, maxmem: maxmem(N, r, p) });
  return actual.length === hash.length && timingSafeEqual(actual, hash);
}

/** True when `stored` was made with other parameters than today's (e.g. the old N=2^15). */
export function needsRehash(stored: string): boolean {
  const parsed = parseStored(stored);
  return !parsed || parsed.N !== SCRYPT_PARAMS.N || parsed.r !== SCRYPT_PARAMS.r || parsed.p !== SCRYPT_PARAMS.p;
}
