/**
 * One SSH connection per computer, reused by worker calls. Without it every call (a
 * reconcile pass inspects each active job every few seconds) would be a new login,
 * with its key exchange and a line in the server's auth log each time.
 *
 * A connection is keyed by the computer's id, revision and settings, so a changed
 * computer gets a fresh one. It is dropped when it closes or errors, when a call on it
 * times out (a cut link looks like that), and after IDLE_MS without use. OpenSSH allows
 * 10 sessions per connection (MaxSessions): past MAX_CHANNELS concurrent calls, a call
 * gets a connection of its own.
 */
import type { Client } from "ssh2";
import { openSsh, type SshConnectOptions } from "./ssh-connection";

const IDLE_MS = 30_000;
const MAX_CHANNELS = 8;

interface Entry {
  conn: Promise<Client>;
  users: number;
  idle: NodeJS.Timeout | null;
}

const POOL = Symbol.for("trainyard.sshPool");
const OPENED = Symbol.for("trainyard.sshPoolOpened");
type Holder = { [POOL]?: Map<string, Entry>; [OPENED]?: number };
const pool = () => ((globalThis as Holder)[POOL] ??= new Map());

/** Connections opened through the pool since start (for tests and diagnostics). */
export const pooledConnectionsOpened = () => (globalThis as Holder)[OPENED] ?? 0;

export interface Lease {
  conn: Client;
  /** Whether this connection was reused (it may have died since its last use). */
  reused: boolean;
  /** Gives the connection back; `broken` drops it from the pool. */
  release(broken?: boolean): void;
}

function drop(key: string, entry: Entry) {
  if (pool().get(key) === entry) pool().delete(key);
  if (entry.idle) clearTimeout(entry.idle);
  // A connection that never opened, or is closed already, has nothing left to end.
  void entry.conn.then((c) => c.end()).catch(() => {});
}

async function oneOff(opts: SshConnectOptions): Promise<Lease> {
  const conn = await openSsh(opts);
  return { conn, reused: false, release: () => conn.end() };
}

export async function lease(opts: SshConnectOptions): Promise<Lease> {
  const key = opts.poolKey;
  if (!key) return oneOff(opts);
  let entry = pool().get(key);
  if (entry && entry.users >= MAX_CHANNELS) return oneOff(opts);
  const reused = Boolean(entry);
  if (!entry) {
    const created: Entry = { conn: openSsh(opts), users: 0, idle: null };
    entry = created;
    pool().set(key, created);
    (globalThis as Holder)[OPENED] = pooledConnectionsOpened() + 1;
    created.conn.then(
      (c) => {
        c.on("close", () => drop(key, created));
        c.on("error", () => drop(key, created));
      },
      () => drop(key, created),
    );
  }
  const e = entry;
  e.users++;
  if (e.idle) clearTimeout(e.idle);
  e.idle = null;
  let conn: Client;
  try {
    conn = await e.conn;
  } catch (err) {
    e.users--;
    throw err;
  }
  let released = false;
  return {
    conn,
    reused,
    release(broken = false) {
      if (released) return;
      released = true;
      e.users--;
      if (broken) return drop(key, e);
      if (e.users === 0 && pool().get(key) === e) e.idle = setTimeout(() => drop(key, e), IDLE_MS).unref();
    },
  };
}

/** Ends every pooled connection: the next calls connect (and check host keys) anew. */
export function closePooledConnections(): void {
  for (const [key, entry] of pool()) drop(key, entry);
}
