/**
 * A stream to a Unix socket on a server, through ssh2's stream-local forwarding
 * (`direct-streamlocal@openssh.com`) on the computer's pooled SSH connection: the
 * resident serving process listens only on its socket there, so no TCP port is opened
 * on either side. The lease is held while the channel is open and given back when it
 * closes. A dropped connection leaves the pool when it closes; one that stays silent (a
 * cut link) is dropped when the channel does not open in time, and the stream is tried
 * once on a fresh connection: that is how a dropped SSH connection is reconnected. A
 * refusal (nobody listens on the socket yet) keeps the connection: it answered.
 */
import type { Duplex } from "node:stream";
import type { Db } from "@/server/db/client";
import type { TargetRow } from "../targets.repository";
import { WorkerUnreachable } from "../transport";
import { lease, type Lease } from "./ssh-pool";
import { sshConnectOptions } from "./ssh-target";

/** A channel that does not open within this long means a dead (or cut) connection. */
const OPEN_TIMEOUT_MS = 10_000;

/** The connection did not answer: it is dropped, and a fresh one may be tried. */
class DeadConnection extends WorkerUnreachable {}

/** The server answered but nobody listens on the socket (the process is gone or not up yet): the link itself is fine. */
export class SocketRefused extends WorkerUnreachable {}

function openOn(l: Lease, label: string, socketPath: string): Promise<Duplex> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const dead = (why: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      l.release(true);
      reject(new DeadConnection(`${label}: ${why}`));
    };
    const timer = setTimeout(() => dead(`no stream to ${socketPath} within ${OPEN_TIMEOUT_MS / 1000} s`), OPEN_TIMEOUT_MS);
    const opened = (err: Error | undefined, channel: Duplex & { close(): void }) => {
      if (settled) {
        channel?.close();
        return;
      }
      // ssh2 gives a refusal of the server its `reason`; without one the connection ended first.
      if (err && !("reason" in err)) return dead(`the SSH connection ended before a stream to ${socketPath} opened (${err.message})`);
      settled = true;
      clearTimeout(timer);
      if (err) {
        l.release();
        return reject(new SocketRefused(`${label}: could not open a stream to ${socketPath} (${err.message})`));
      }
      channel.once("close", () => l.release());
      resolve(channel);
    };
    try {
      l.conn.openssh_forwardOutStreamLocal(socketPath, opened);
    } catch (err) {
      // ssh2 throws at once on a connection that has already ended.
      dead((err as Error).message);
    }
  });
}

export async function openSocketOverSsh(db: Db, t: TargetRow, socketPath: string): Promise<Duplex> {
  const opts = await sshConnectOptions(db, t);
  const first = await lease(opts);
  try {
    return await openOn(first, opts.label, socketPath);
  } catch (err) {
    // A reused connection may have died since its last use: try once on a fresh one.
    if (!(first.reused && err instanceof DeadConnection)) throw err;
    return openOn(await lease(opts), opts.label, socketPath);
  }
}
