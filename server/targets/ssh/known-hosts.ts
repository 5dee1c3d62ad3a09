/**
 * Host key checking against OpenSSH known_hosts files (the user's, and Trainyard's own
 * list of keys the owner accepted). Handles plain names, `[host]:port`, comma lists,
 * `*`/`?` patterns, negations, hashed entries (`|1|salt|hmac`, HMAC-SHA1 of the name),
 * `@revoked` markers; `@cert-authority` lines are not host keys and are skipped.
 * Strict: a key that differs from a known one for the host is "changed", never accepted.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";

export interface KnownHostEntry {
  marker: "revoked" | null;
  /** The host field as written: patterns, or one hashed name. */
  hosts: string;
  keyType: string;
  /** The key blob, base64 as in the file. */
  key: string;
}

export type HostKeyVerdict =
  | { status: "known" }
  | { status: "unknown"; fingerprint: string }
  | { status: "changed"; fingerprint: string; knownFingerprints: string[] }
  | { status: "revoked"; fingerprint: string };

export function parseKnownHosts(text: string): KnownHostEntry[] {
  const entries: KnownHostEntry[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith("#")) continue;
    const fields = line.split(/\s+/);
    let marker: KnownHostEntry["marker"] = null;
    if (fields[0]?.startsWith("@")) {
      const m = fields.shift();
      if (m !== "@revoked") continue; // @cert-authority: not a host key
      marker = "revoked";
    }
    const [hosts, keyType, key] = fields;
    if (!hosts || !keyType || !key) continue;
    entries.push({ marker, hosts, keyType, key });
  }
  return entries;
}

/** The name known_hosts records for a host: `host`, or `[host]:port` off port 22. */
export function hostKeyName(host: string, port: number): string {
  return port === 22 ? host : `[${host}]:${port}`;
}

function globMatch(pattern: string, name: string): boolean {
  const re = new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*").replace(/\?/g, ".")}$`, "i");
  return re.test(name);
}

function hashedMatch(field: string, name: string): boolean {
  const [, kind, salt, mac] = field.split("|");
  if (kind !== "1" || !salt || !mac) return false;
  const expected = Buffer.from(mac, "base64");
  const actual = createHmac("sha1", Buffer.from(salt, "base64")).update(name).digest();
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** Whether an entry's host field names this host (negated patterns exclude it). */
export function entryMatches(entry: KnownHostEntry, name: string): boolean {
  if (entry.hosts.startsWith("|1|")) return hashedMatch(entry.hosts, name);
  let matched = false;
  for (const pattern of entry.hosts.split(",")) {
    if (pattern.startsWith("!")) {
      if (globMatch(pattern.slice(1), name)) return false;
    } else if (globMatch(pattern, name)) matched = true;
  }
  return matched;
}

/** OpenSSH's fingerprint form: `SHA256:` + unpadded base64 of the key blob's SHA-256. */
export function fingerprintOf(keyBase64: string): string {
  const digest = createHash("sha256").update(Buffer.from(keyBase64, "base64")).digest("base64");
  return `SHA256:${digest.replace(/=+$/, "")}`;
}

export function verifyHostKey(entries: KnownHostEntry[], host: string, port: number, keyType: string, keyBase64: string): HostKeyVerdict {
  const name = hostKeyName(host, port);
  const fingerprint = fingerprintOf(keyBase64);
  const mine = entries.filter((e) => entryMatches(e, name));
  if (mine.some((e) => e.marker === "revoked" && e.key === keyBase64)) return { status: "revoked", fingerprint };
  const keys = mine.filter((e) => e.marker === null);
  if (keys.some((e) => e.keyType === keyType && e.key === keyBase64)) return { status: "known" };
  // Another key of the same type for this host is a changed key; a host known only by
  // keys of other types offers a new type, which OpenSSH also refuses under strict checking.
  if (keys.length > 0) return { status: "changed", fingerprint, knownFingerprints: keys.map((e) => fingerprintOf(e.key)) };
  return { status: "unknown", fingerprint };
}
