/** A server reached over SSH as a Target: its files travel over SFTP, its store is its own. */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Db } from "@/server/db/client";
import type { Target } from "../target";
import type { TargetRow } from "../targets.repository";
import { workerCalls } from "../worker-calls";
import { pullFileOverSsh, pushBlobOverSsh } from "./ssh-files";
import { LinkDown } from "../socket-errors";
import { openSocketOverSsh, SocketRefused } from "./ssh-socket";
import { remoteLayout, sshConfigOf } from "./ssh-target";

export function sshWorker(row: TargetRow, db: Db): Target {
  const pullFile = (workerPath: string, localFile: string) => pullFileOverSsh(db, row, workerPath, localFile);
  return {
    row,
    name: row.name,
    // Read when used: a computer whose settings no longer parse still lists, and says so when called.
    get layout() {
      return remoteLayout(sshConfigOf(row).workerDir).worker;
    },
    probedInBackground: false,
    socketRoute: (socketPath) => ({
      // A server that answers "nobody listens there" is reachable (its process is gone); anything else is the link.
      openStream: () =>
        openSocketOverSsh(db, row, socketPath).catch((err: Error) => {
          throw err instanceof SocketRefused ? err : new LinkDown(`${row.name} cannot be reached over SSH: ${err.message}`);
        }),
      via: row.name,
    }),
    ...workerCalls(row, db),
    storeFile: async (localFile, sha256, bytes, onBytes) => ({ ...(await pushBlobOverSsh(db, row, localFile, sha256, bytes, onBytes)), ownCopy: true }),
    pullFile,
    async withFile(workerPath, fn) {
      const dir = await mkdtemp(path.join(os.tmpdir(), "trainyard-fetch-"));
      try {
        const file = path.join(dir, "output");
        await pullFile(workerPath, file);
        return await fn(file);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
