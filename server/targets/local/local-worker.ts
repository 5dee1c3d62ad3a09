/**
 * This computer as a Target: its worker runs beside the server and shares the server's
 * store (DESIGN "Storage on disk"), so nothing is copied to it and a path it names is read
 * where it is. A Slurm cluster whose login node this is has a worker here too, with a
 * store of its own in its home (`ownStore`): files are copied there for the compute nodes.
 */
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { copyFile, mkdir, rename, rm } from "node:fs/promises";
import net from "node:net";
import type { Db } from "@/server/db/client";
import { workerLayout } from "../layout";
import type { Target } from "../target";
import type { TargetRow } from "../targets.repository";
import { ZLocalTargetConfig } from "../targets.schema";
import { workerCalls } from "../worker-calls";

export function localWorkerHome(row: Pick<TargetRow, "config">): string {
  return ZLocalTargetConfig.parse(JSON.parse(row.config)).workerHome;
}

export function localWorker(row: TargetRow, db: Db, opts: { ownStore: boolean } = { ownStore: false }): Target {
  const calls = workerCalls(row, db);
  const layout = () => workerLayout(localWorkerHome(row));
  return {
    row,
    name: row.name,
    get layout() {
      return layout();
    },
    probedInBackground: true,
    socketRoute: (socketPath) => ({ openStream: async () => net.connect(socketPath), via: null }),
    ...calls,
    async storeFile(localFile, sha256, bytes) {
      // Uploads are written into this store: usually the blob is there already.
      if (existsSync(layout().blob(sha256))) return { resumedFrom: bytes, sent: 0, ownCopy: opts.ownStore };
      // Copied, not moved: the file stays where it is kept (an export in managed storage).
      await mkdir(layout().incoming, { recursive: true, mode: 0o700 });
      const part = layout().part(sha256);
      const tmp = `${part}.${randomUUID()}.tmp`;
      try {
        await copyFile(localFile, tmp);
        await rename(tmp, part);
        const put = await calls.exec("put", { opId: `put:${randomUUID()}`, sha256, bytes });
        if (!put.complete) throw new Error(`the worker did not store ${sha256.slice(0, 12)}… (${bytes} bytes expected)`);
      } finally {
        await rm(tmp, { force: true });
      }
      return { resumedFrom: 0, sent: bytes, ownCopy: opts.ownStore };
    },
    pullFile: (workerPath, localFile) => copyFile(workerPath, localFile),
    withFile: (workerPath, fn) => fn(workerPath),
  };
}
