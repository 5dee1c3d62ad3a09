/**
 * One authenticated SSH connection (ssh2), shared by the worker transport (one exec per
 * request) and file transfers (SFTP). The host key is checked strictly before anything
 * is sent: an unknown, changed or revoked key refuses the connection with its
 * fingerprint (HostKeyRejected), for the owner to accept explicitly.
 *
 * Authentication uses the user's key files (unencrypted ones are read at connect time)
 * and ssh-agent. Key contents and passphrases are never stored, logged, or put in an
 * error message; messages name key files by path only.
 */
import { existsSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import ssh2, { Client, type AnyAuthMethod, type ConnectConfig } from "ssh2";
import { WorkerUnreachable } from "../transport";
import type { HostKeyVerdict } from "./known-hosts";
import type { TSshEndpoint } from "./ssh-settings";

export class HostKeyRejected extends WorkerUnreachable {
  constructor(
    readonly verdict: Exclude<HostKeyVerdict, { status: "known" }>,
    readonly keyType: string,
    readonly keyBase64: string,
    label: string,
  ) {
    super(
      verdict.status === "unknown"
        ? `${label} presented a host key Trainyard does not know (${verdict.fingerprint}). Check it and accept it to continue.`
        : verdict.status === "changed"
          ? `The host key of ${label} changed (now ${verdict.fingerprint}, known ${verdict.knownFingerprints.join(", ")}). The computer is blocked until the new key is accepted.`
          : `${label} presented a revoked host key (${verdict.fingerprint}).`,
    );
    this.name = "HostKeyRejected";
  }
}

export interface SshConnectOptions {
  label: string;
  endpoint: TSshEndpoint;
  /** Path of the ssh-agent socket (SSH_AUTH_SOCK), when there is one. */
  agent?: string;
  /** Private key contents, when the caller already read them (tests). */
  privateKey?: Buffer;
  /** Decides on the server's host key (type, base64 blob). */
  verifyHostKey: (keyType: string, keyBase64: string) => HostKeyVerdict;
  timeoutMs: number;
  /** Set to share one connection between calls (ssh-pool.ts); unset: a connection per call. */
  poolKey?: string;
}

export function expandHome(p: string): string {
  return p === "~" ? os.homedir() : p.startsWith("~/") ? path.join(os.homedir(), p.slice(2)) : p;
}

export const DEFAULT_IDENTITY_FILES = ["~/.ssh/id_ed25519", "~/.ssh/id_ecdsa", "~/.ssh/id_rsa"];

/** Usable private keys among the files, plus why the others were skipped (paths only). */
export function readIdentityFiles(files: string[]): { keys: { file: string; key: Buffer }[]; skipped: string[] } {
  const keys: { file: string; key: Buffer }[] = [];
  const skipped: string[] = [];
  for (const f of files.length ? files : DEFAULT_IDENTITY_FILES) {
    const file = expandHome(f);
    if (!existsSync(file)) continue;
    let data: Buffer;
    try {
      data = readFileSync(file);
    } catch {
      skipped.push(`${file} (not readable)`);
      continue;
    }
    // ssh2 is CommonJS: `utils` is reachable through the default export only.
    const parsed = ssh2.utils.parseKey(data);
    if (parsed instanceof Error) {
      skipped.push(/encrypted|passphrase/i.test(parsed.message) ? `${file} (has a passphrase: add it to ssh-agent)` : `${file} (not a private key)`);
      continue;
    }
    keys.push({ file, key: data });
  }
  return { keys, skipped };
}

function keyTypeOf(blob: Buffer): string {
  const len = blob.readUInt32BE(0);
  return blob.subarray(4, 4 + len).toString("ascii");
}

/** Connects, checks the host key, authenticates; resolves with a ready client. */
export function openSsh(opts: SshConnectOptions): Promise<Client> {
  const user = opts.endpoint.user;
  const auth: AnyAuthMethod[] = [];
  let skipped: string[] = [];
  if (opts.privateKey) auth.push({ type: "publickey", username: user, key: opts.privateKey });
  else {
    const read = readIdentityFiles(opts.endpoint.identityFiles);
    skipped = read.skipped;
    for (const k of read.keys) auth.push({ type: "publickey", username: user, key: k.key });
  }
  if (opts.agent) auth.push({ type: "agent", username: user, agent: opts.agent });
  if (auth.length === 0) {
    const why = skipped.length ? ` Skipped: ${skipped.join("; ")}.` : "";
    return Promise.reject(new WorkerUnreachable(`No SSH key to log in to ${opts.label} with: no readable key file and no ssh-agent.${why}`));
  }
  return new Promise((resolve, reject) => {
    const conn = new Client();
    let rejectedKey: HostKeyRejected | null = null;
    let done = false;
    const fail = (err: Error) => {
      if (done) return;
      done = true;
      conn.end();
      reject(err);
    };
    conn.on("ready", () => {
      if (done) return;
      done = true;
      resolve(conn);
    });
    conn.on("error", (err: Error & { level?: string }) => {
      if (rejectedKey) return fail(rejectedKey);
      if (err.level === "client-authentication") {
        const why = skipped.length ? ` Skipped: ${skipped.join("; ")}.` : "";
        return fail(new WorkerUnreachable(`${opts.label} refused every key offered for ${user} (SSH authentication failed).${why}`));
      }
      fail(new WorkerUnreachable(`cannot reach ${opts.label} over SSH: ${err.message}`));
    });
    conn.on("close", () => fail(new WorkerUnreachable(`${opts.label} closed the SSH connection`)));
    const config: ConnectConfig = {
      host: opts.endpoint.host,
      port: opts.endpoint.port,
      username: user,
      readyTimeout: Math.min(opts.timeoutMs, 20_000),
      // A cut link shows as missed keepalives rather than a call hanging until its timeout.
      keepaliveInterval: 5_000,
      keepaliveCountMax: 3,
      authHandler: auth,
      hostVerifier: (key: Buffer) => {
        const keyType = keyTypeOf(key);
        const keyBase64 = key.toString("base64");
        const verdict = opts.verifyHostKey(keyType, keyBase64);
        if (verdict.status === "known") return true;
        rejectedKey = new HostKeyRejected(verdict, keyType, keyBase64, opts.label);
        return false;
      },
    };
    conn.connect(config);
  });
}
