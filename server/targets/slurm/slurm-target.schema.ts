/**
 * A Slurm cluster as a training computer (Target kind "slurm"): This computer is its login
 * node, and its worker (a home of its own, on a file system the compute nodes share) sends
 * recipe jobs to a partition with sbatch. Target.config holds the worker home and the Slurm
 * settings written into that worker's config.json.
 */
import { z } from "zod";
import { ZSlurmName, ZSlurmSettings } from "@/contracts/worker";
import { ZSafeRemotePath, ZSshAlias } from "../ssh/ssh-settings";

export const ZSlurmTargetConfig = z.object({ workerHome: z.string().startsWith("/"), slurm: ZSlurmSettings });
export type TSlurmTargetConfig = z.infer<typeof ZSlurmTargetConfig>;

export const ZAddSlurmInput = z.strictObject({
  name: z.string().trim().min(1, "Give the computer a name.").max(80, "Keep the name under 80 characters."),
  partition: ZSlurmName,
  account: ZSlurmName.nullable().default(null),
  qos: ZSlurmName.nullable().default(null),
  /**
   * Where its worker keeps jobs, environments and the store: a folder the compute nodes see.
   * Default: in the data home; over SSH, ~/.trainyard on the login node (the worker is installed there).
   */
  workerHome: ZSafeRemotePath.refine((p) => p.startsWith("/"), "The worker home is an absolute path (on the login node).").nullable().default(null),
  /** An SSH alias of the login node (the user's ssh config applies); null: This computer is the login node. */
  ssh: ZSshAlias.nullable().default(null),
});
export type TAddSlurmInput = z.input<typeof ZAddSlurmInput>;
