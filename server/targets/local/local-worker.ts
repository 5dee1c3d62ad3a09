/**
 * This computer as a Target: its worker runs beside the server and shares the server's
 * store (DESIGN "Storage on disk"), so nothing is copied to it and a path it names is read
 * where it is.
 */
import { copyFile } from "node:fs/promises";
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

export function localWorker(row: TargetRow, db: Db): Target {
  return {
    row,
    name: row.name,
    get layout() {
      return workerLayout(localWorkerHome(row));
    },
    sharesStore: true,
    probedInBackground: true,
    openSocket: async (socketPath) => net.connect(socketPath),
    socketLink: null,
    ...workerCalls(row, db),
    // The blob is already in this store (uploads are written into it).
    pushBlob: async (_localFile, _sha256, bytes) => ({ resumedFrom: bytes, sent: 0 }),
    pullFile: (workerPath, localFile) => copyFile(workerPath, localFile),
    withFile: (workerPath, fn) => fn(workerPath),
  };
}
