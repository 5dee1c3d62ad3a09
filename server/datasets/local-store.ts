/**
 * This computer's side of the store. The controller and the local worker share one
 * store (DESIGN "Storage on disk"), so an upload is written straight into the worker
 * home's `incoming/` and handed over with `put`. The layout is the worker's
 * (server/targets/layout.ts); a blob is removed by asking the worker (Target.removeBlobs).
 */
import type { Db } from "@/server/db/client";
import { unavailable } from "@/server/errors";
import { workerLayout } from "@/server/targets/layout";
import { localWorkerHome } from "@/server/targets/local/local-worker";
import { targetsRepository, type TargetRow } from "@/server/targets/targets.repository";

export async function localTarget(db?: Db): Promise<TargetRow> {
  const t = await targetsRepository(db).findLocal();
  if (!t) throw unavailable("This computer is not registered yet (the server registers it at start); try again in a moment.");
  return t;
}

export const workerHomeOf = (t: TargetRow): string => localWorkerHome(t);
export const incomingDir = (workerHome: string) => workerLayout(workerHome).incoming;
export const partPath = (workerHome: string, sha256: string) => workerLayout(workerHome).part(sha256);
export const blobPath = (workerHome: string, sha256: string): string => workerLayout(workerHome).blob(sha256);
