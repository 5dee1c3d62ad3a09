/**
 * The worker homes of Slurm computers whose login node is this computer. Their workers read
 * files on this machine (and, through the shared file system, the nodes do), so the owner's
 * allowed folders apply to them as to This computer's worker.
 */
import type { Db } from "@/server/db/client";
import { parseStoredJson } from "@/server/db/stored-json";
import { targetsRepository } from "../targets.repository";
import { ZSlurmTargetConfig } from "./slurm-target.schema";

export async function slurmWorkerHomes(db?: Db): Promise<string[]> {
  const all = await targetsRepository(db).list();
  return all.flatMap((t) => {
    const cfg = t.kind === "slurm" ? parseStoredJson(ZSlurmTargetConfig, t.config) : null;
    return cfg ? [cfg.workerHome] : [];
  });
}
