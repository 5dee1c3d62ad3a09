/** The one place a computer's kind picks its implementation of Target. */
import { getDb, type Db } from "@/server/db/client";
import { localWorker } from "./local/local-worker";
import { sshWorker } from "./ssh/ssh-worker";
import type { Target } from "./target";
import type { TargetRow } from "./targets.repository";

export function targetFor(row: TargetRow, db: Db = getDb()): Target {
  if (row.kind === "ssh") return sshWorker(row, db);
  // A Slurm cluster's worker runs here too, with a store of its own (the compute nodes read it).
  return localWorker(row, db, { ownStore: row.kind === "slurm" });
}
