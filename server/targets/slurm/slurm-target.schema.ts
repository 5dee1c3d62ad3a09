/**
 * A Slurm cluster as a training computer (Target kind "slurm"): This computer is its login
 * node, and its worker (a home of its own, on a file system the compute nodes share) sends
 * recipe jobs to a partition with sbatch. Target.config holds the worker home and the Slurm
 * settings written into that worker's config.json.
 */
import { z } from "zod";
import { ZSlurmName, ZSlurmSettings } from "@/contracts/worker";
import { ZSafeRemotePath } from "../ssh/ssh-settings";

export const ZSlurmTargetConfig = z.object({ workerHome: z.string().startsWith("/"), slurm: ZSlurmSettings });
export type TSlurmTargetConfig = z.infer<typeof ZSlurmTargetConfig>;

export const ZAddSlurmInput = z.strictObject({
  name: z.string().trim().min(1, "Give the computer a name.").max(80, "Keep the name under 80 characters."),
  partition: ZSlurmName,
  account: ZSlurmName.nullable().default(null),
  qos: ZSlurmName.nullable().default(null),
  /** Where its worker keeps jobs, environments and the store: a folder the compute nodes see. Default: in the data home. */
  workerHome: ZSafeRemotePath.refine((p) => p.startsWith("/"), "The worker home is an absolute path on this computer.").nullable().default(null),
  /** An SSH alias of a login node: not built yet (the add is refused with what to do instead). */
  ssh: z.string().trim().min(1).nullable().default(null),
});
export type TAddSlurmInput = z.input<typeof ZAddSlurmInput>;
