/**
 * Which host keys an SSH computer may present: the user's own known_hosts files (as
 * OpenSSH reads them, hashed entries too) plus the keys the owner accepted in Trainyard
 * (AcceptedHostKey). A key the owner accepted for a host wins over an older one in the
 * user's files: accepting a changed key is how a blocked computer is unblocked.
 */
import { existsSync, readFileSync } from "node:fs";
import type { Db } from "@/server/db/client";
import { expandHome } from "./ssh-connection";
import { hostKeyName, parseKnownHosts, verifyHostKey, type HostKeyVerdict, type KnownHostEntry } from "./known-hosts";

export const DEFAULT_KNOWN_HOSTS_FILES = ["~/.ssh/known_hosts", "~/.ssh/known_hosts2", "/etc/ssh/ssh_known_hosts", "/etc/ssh/ssh_known_hosts2"];

export function readKnownHostsFiles(files: string[]): KnownHostEntry[] {
  const entries: KnownHostEntry[] = [];
  for (const f of files.length ? files : DEFAULT_KNOWN_HOSTS_FILES) {
    const file = expandHome(f);
    if (!existsSync(file)) continue;
    try {
      entries.push(...parseKnownHosts(readFileSync(file, "utf8")));
    } catch {
      // an unreadable file adds nothing: the key then shows as unknown, for the owner to check
    }
  }
  return entries;
}

export async function acceptedEntries(db: Db): Promise<KnownHostEntry[]> {
  const rows = await db.acceptedHostKey.findMany({ select: { hostName: true, keyType: true, key: true } });
  return rows.map((r) => ({ marker: null, hosts: r.hostName, keyType: r.keyType, key: r.key }));
}

/** The verifier for one host: accepted keys first, then everything known together. */
export async function hostKeyVerifier(db: Db, host: string, port: number, knownHostsFiles: string[]) {
  const accepted = await acceptedEntries(db);
  const name = hostKeyName(host, port);
  const all = [...readKnownHostsFiles(knownHostsFiles), ...accepted];
  return (keyType: string, keyBase64: string): HostKeyVerdict => {
    if (accepted.some((e) => e.hosts === name && e.keyType === keyType && e.key === keyBase64)) return { status: "known" };
    return verifyHostKey(all, host, port, keyType, keyBase64);
  };
}

/** Records the owner's acceptance: it replaces an earlier key of the same type for the host. */
export async function acceptHostKey(db: Db, k: { hostName: string; keyType: string; key: string; fingerprint: string }) {
  await db.acceptedHostKey.upsert({
    where: { hostName_keyType: { hostName: k.hostName, keyType: k.keyType } },
    create: k,
    update: { key: k.key, fingerprint: k.fingerprint, acceptedAt: new Date() },
  });
}

export interface AcceptedHostKeyView {
  id: number;
  hostName: string;
  keyType: string;
  fingerprint: string;
  acceptedAt: string;
}

export async function listAcceptedHostKeys(db: Db): Promise<AcceptedHostKeyView[]> {
  const rows = await db.acceptedHostKey.findMany({ orderBy: [{ hostName: "asc" }, { keyType: "asc" }] });
  return rows.map((r) => ({ id: r.id, hostName: r.hostName, keyType: r.keyType, fingerprint: r.fingerprint, acceptedAt: r.acceptedAt.toISOString() }));
}

/** Forgets an accepted key: the next connection to that host asks again (or uses known_hosts). */
export async function forgetHostKey(db: Db, id: number): Promise<boolean> {
  return (await db.acceptedHostKey.deleteMany({ where: { id } })).count > 0;
}
