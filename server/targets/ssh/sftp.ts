/**
 * Files to and from an SSH computer over SFTP (ssh2), on the same checked connection as
 * the worker transport. Paths are the worker's own (validated) directory or paths the
 * worker named; `~/x` is the SFTP session's home-relative `x`. Uploads resume: the
 * remote part's size is the offset to continue from. Errors on the way are
 * WorkerUnreachable: the caller retries later and the transfer continues where it stopped.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import type { Client, SFTPWrapper, Stats } from "ssh2";
import { WorkerUnreachable } from "../transport";
import { openSsh, type SshConnectOptions } from "./ssh-connection";

export interface SftpSession {
  sftp: SFTPWrapper;
  label: string;
  /** Calls `fn` if the connection is lost (streams on it would otherwise wait forever). */
  onLost(fn: (err: WorkerUnreachable) => void): () => void;
  close(): void;
}

export function sftpPath(p: string): string {
  return p.startsWith("~/") ? p.slice(2) : p;
}

const lost = (label: string, what: string) => (err: Error) => new WorkerUnreachable(`${what} on ${label} stopped: ${err.message}`);

export async function openSftp(opts: SshConnectOptions): Promise<SftpSession> {
  const conn: Client = await openSsh(opts);
  return new Promise((resolve, reject) => {
    conn.sftp((err, sftp) => {
      if (err) {
        conn.end();
        return reject(new WorkerUnreachable(`${opts.label} offers no SFTP: ${err.message}`));
      }
      const listeners = new Set<(e: WorkerUnreachable) => void>();
      let lostWith: WorkerUnreachable | null = null;
      const lose = (e: WorkerUnreachable) => {
        lostWith ??= e;
        for (const l of listeners) l(lostWith);
      };
      conn.on("error", (e: Error) => lose(new WorkerUnreachable(`lost the SSH connection to ${opts.label}: ${e.message}`)));
      conn.on("close", () => lose(new WorkerUnreachable(`${opts.label} closed the SSH connection`)));
      resolve({
        sftp,
        label: opts.label,
        onLost(fn) {
          if (lostWith) fn(lostWith);
          listeners.add(fn);
          return () => listeners.delete(fn);
        },
        close: () => {
          listeners.clear();
          conn.end();
        },
      });
    });
  });
}

export async function withSftp<T>(opts: SshConnectOptions, fn: (s: SftpSession) => Promise<T>): Promise<T> {
  const s = await openSftp(opts);
  try {
    return await fn(s);
  } finally {
    s.close();
  }
}

const call = <T>(label: string, what: string, f: (cb: (err: Error | undefined | null, v: T) => void) => void): Promise<T> =>
  new Promise((resolve, reject) => f((err, v) => (err ? reject(lost(label, what)(err)) : resolve(v))));

export async function statOrNull(s: SftpSession, p: string): Promise<Stats | null> {
  return new Promise((resolve, reject) =>
    s.sftp.stat(sftpPath(p), (err, st) => {
      if (!err) return resolve(st);
      if ((err as { code?: number }).code === 2) return resolve(null); // NO_SUCH_FILE
      reject(lost(s.label, `reading ${p}`)(err));
    }),
  );
}

export async function mkdirp(s: SftpSession, dir: string): Promise<void> {
  const rel = sftpPath(dir);
  const parts = rel.split("/");
  for (let i = 1; i <= parts.length; i++) {
    const p = parts.slice(0, i).join("/");
    if (!p) continue;
    const st = await statOrNull(s, p);
    if (st?.isDirectory()) continue;
    if (st) throw new WorkerUnreachable(`${p} on ${s.label} exists and is not a folder`);
    await call(s.label, `creating ${p}`, (cb) => s.sftp.mkdir(p, { mode: 0o700 }, (e) => cb(e, undefined)));
  }
}

const CHUNK_BYTES = 64 * 1024;
const WRITES_IN_FLIGHT = 16;
/**
 * How far before a part's size a resumed upload starts again. OpenSSH applies writes in
 * the order they arrive, so a part is a clean prefix; rewriting the last window (equal
 * bytes at equal offsets) costs little and does not rely on it.
 */
export const RESUME_OVERLAP_BYTES = CHUNK_BYTES * WRITES_IN_FLIGHT;

/**
 * Writes `localFile` from `offset` on into `remote` (created when offset is 0), with
 * several writes in flight: ssh2's write stream waits for each acknowledgement, which on
 * a network with 20 ms round trips would cap an upload near 1.6 MB/s.
 */
export function uploadFrom(s: SftpSession, localFile: string, remote: string, offset: number, onBytes?: (n: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let fd: number;
    let size: number;
    try {
      fd = openSync(localFile, "r");
      size = fstatSync(fd).size;
    } catch (err) {
      return reject(err);
    }
    let handle: Buffer | null = null;
    let pos = offset;
    let inFlight = 0;
    let failed = false;
    const off = s.onLost((e) => fail(e));
    const cleanup = () => {
      off();
      closeSync(fd);
      if (handle) s.sftp.close(handle, () => {});
    };
    const fail = (e: Error) => {
      if (failed) return;
      failed = true;
      cleanup();
      reject(e instanceof WorkerUnreachable ? e : lost(s.label, `copying to ${remote}`)(e));
    };
    const pump = () => {
      if (failed || !handle) return;
      if (pos >= size && inFlight === 0) {
        failed = true; // settled
        off();
        closeSync(fd);
        return s.sftp.close(handle, (err) => (err ? reject(lost(s.label, `closing ${remote}`)(err)) : resolve()));
      }
      while (inFlight < WRITES_IN_FLIGHT && pos < size) {
        const len = Math.min(CHUNK_BYTES, size - pos);
        const buf = Buffer.allocUnsafe(len);
        try {
          readSync(fd, buf, 0, len, pos);
        } catch (err) {
          return fail(err as Error);
        }
        const at = pos;
        pos += len;
        inFlight++;
        s.sftp.write(handle, buf, 0, len, at, (err) => {
          inFlight--;
          if (err) return fail(err);
          onBytes?.(len);
          pump();
        });
      }
    };
    s.sftp.open(sftpPath(remote), offset > 0 ? "r+" : "w", { mode: 0o600 }, (err, h) => {
      if (err) return fail(err);
      handle = h;
      pump();
    });
  });
}

/** Copies `remote` to `localFile` (created or truncated), with parallel reads (fastGet). */
export function download(s: SftpSession, remote: string, localFile: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let done = false;
    const finish = (err?: Error | null) => {
      if (done) return;
      done = true;
      off();
      if (err) reject(err instanceof WorkerUnreachable ? err : lost(s.label, `copying ${remote}`)(err));
      else resolve();
    };
    const off = s.onLost(finish);
    s.sftp.fastGet(sftpPath(remote), localFile, { mode: 0o600 }, (err) => finish(err));
  });
}

export function writeRemoteFile(s: SftpSession, remote: string, data: string | Buffer, mode = 0o600): Promise<void> {
  return call(s.label, `writing ${remote}`, (cb) => s.sftp.writeFile(sftpPath(remote), data, { mode }, (e) => cb(e, undefined)));
}

export async function readRemoteFile(s: SftpSession, remote: string): Promise<Buffer | null> {
  if (!(await statOrNull(s, remote))) return null;
  return call(s.label, `reading ${remote}`, (cb) => s.sftp.readFile(sftpPath(remote), (e, b) => cb(e, b)));
}

/** POSIX rename (replaces the destination), through OpenSSH's extension. */
export function renameOver(s: SftpSession, from: string, to: string): Promise<void> {
  return call(s.label, `renaming ${from}`, (cb) => s.sftp.ext_openssh_rename(sftpPath(from), sftpPath(to), (e) => cb(e, undefined)));
}

export async function removeTree(s: SftpSession, p: string): Promise<void> {
  const st = await statOrNull(s, p);
  if (!st) return;
  if (!st.isDirectory()) {
    await call(s.label, `removing ${p}`, (cb) => s.sftp.unlink(sftpPath(p), (e) => cb(e, undefined)));
    return;
  }
  const entries = await call(s.label, `listing ${p}`, (cb: (e: Error | undefined | null, v: { filename: string }[]) => void) => s.sftp.readdir(sftpPath(p), cb));
  for (const e of entries) await removeTree(s, `${p}/${e.filename}`);
  await call(s.label, `removing ${p}`, (cb) => s.sftp.rmdir(sftpPath(p), (e) => cb(e, undefined)));
}
