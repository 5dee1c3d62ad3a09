/**
 * Upload parts (`incoming/*.part` in This computer's worker home) that a crash, a killed
 * server or a client that never came back left behind are removed at start once they are
 * a day old (the worker's own gc rule; a younger one may still be resumed). Parts of
 * finished uploads are removed when they are stored (the worker's put).
 */
import type { Db } from "@/server/db/client";
import { localTarget } from "@/server/datasets/local-store";
import { targetFor } from "@/server/targets/target-for";

export async function removeStaleParts(db: Db): Promise<string[]> {
  return targetFor(await localTarget(db), db).removeStaleParts();
}
