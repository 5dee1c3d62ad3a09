// Which jobs of a Slurm computer go to Slurm: its recipe jobs. Building an environment and
// importing a file run beside the worker (the login node), and a serving process stays
// there too: it answers requests for hours, which a batch job with a time limit does not.
import type { TSlurmSettings } from "../../../contracts/worker/slurm";
import type { WorkerConfig } from "../config";

export function slurmFor(cfg: WorkerConfig, job: { kind: string; resident: boolean }): TSlurmSettings | null {
  return cfg.slurm && job.kind === "run" && !job.resident ? cfg.slurm : null;
}
