/**
 * This computer's side of the store. The controller and the local worker share one
 * store (DESIGN "Storage on disk"), so an upload is written straight into the worker
 * home's `incoming/` and handed over with `put`. Layout (worker/README.md, "Home
 * layout"): `store/<aa>/<sha256>` blobs, `incoming/<sha256>.part` parts.
 *
 * Deleting a blob goes through `removeLocalBlob`, which only ever removes a path it has
 * built from a validated hash inside `<workerHome>/store` — never a user's file.
 */
import { existsSync, realpathSync, rmSync } from "node:fs";
import path from "node:path";
import type { Db } from "@/server/db/client";
import { unavailable } from "@/server/errors";
import { targetsRepository, type TargetRow } from "@/server/targets/targets.repository";
import { ZLocalTargetConfig } from "@/server/targets/targets.schema";

export async function localTarget(db?: Db): Promise<TargetRow> {
  const t = (await targetsRepository(db).list()).find((x) => x.kind === "local");
  if (!t) throw unavailable("This computer is not registered yet (the server registers it at start); try again in a moment.");
  return t;
}

export function workerHomeOf(t: TargetRow): string {
  return ZLocalTargetConfig.parse(JSON.parse(t.config)).workerHome;
}

export const incomingDir = (workerHome: string) => path.join(workerHome, "incoming");
export const partPath = (workerHome: string, sha256: string) => path.join(incomingDir(workerHome), `${sha256}.part`);

export function blobPath(workerHome: string, sha256: string): string {
  if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`not a SHA-256: ${sha256}`);
  return path.join(workerHome, "store", sha256.slice(0, 2), sha256);
}

/** Removes one blob of the local store; returns the bytes it held (0 when absent). */
export function removeLocalBlob(workerHome: string, sha256: string, bytes: number): number {
  const p = blobPath(workerHome, sha256);
  if (!existsSync(p)) return 0;
  const store = realpathSync(path.join(workerHome, "store"));
  const real = realpathSync(p);
  if (path.dirname(path.dirname(real)) !== store) throw new Error(`refusing to delete ${real}: it is not a blob of ${store}`);
  rmSync(real, { force: true });
  return bytes;
}
