// submit: idempotent by opId, checked (recipe, the input against its contract, environment,
// capacity, disk, input refs),
// recorded durably as `queued`, then the queue is moved (startWhatFits admits it and
// launches its supervisor if it fits).
import type { z } from "zod";
import type { ZSubmitRequest } from "../../../contracts/worker/requests";
import { WorkerError } from "../errors";
import { checkJobInput } from "../input-contract";
import { resolveInput } from "../inputs";
import { capacityError, diskFreeBytes, startWhatFits } from "../ledger";
import { envReady, findRecipe } from "../recipes";
import { slurmFor } from "../slurm/placement";
import type { Ctx } from "./context";
import { createJob, existingForOp, withOpsLock } from "./createjob";
import { currentReceipt } from "./jobs";

export function submit(ctx: Ctx, req: z.output<typeof ZSubmitRequest>) {
  const { cfg, home } = ctx;
  const out = withOpsLock(ctx, () => {
    const existing = existingForOp(ctx, req.opId, req.intentHash);
    if (existing?.receipt) return { jobId: existing.jobId, created: false };
    const recipe = findRecipe(cfg.trainingDir, req.recipe);
    if (recipe.jobs.length && !recipe.jobs.includes(req.job)) {
      throw new WorkerError("bad_request", `recipe ${recipe.name} has no job ${JSON.stringify(req.job)} (jobs: ${recipe.jobs.join(", ")})`);
    }
    checkJobInput(recipe.name, req.job, req.input);
    if (!envReady(cfg.envsDir, req.environmentId)) {
      throw new WorkerError("environment_not_ready", `environment ${req.environmentId} is not built on this worker (run prepare for ${req.recipe})`);
    }
    // A Slurm computer's jobs are sized by Slurm, whose sbatch refuses what no node can hold.
    const tooBig = slurmFor(cfg, { kind: "run", resident: recipe.resident }) ? null : capacityError(cfg, req.resources);
    if (tooBig) throw new WorkerError("exceeds_capacity", `job ${req.recipe}.${req.job} ${tooBig}`, { capacity: cfg.capacity });
    const free = diskFreeBytes(home.root);
    if (free !== null && free < cfg.minFreeDiskBytes) {
      throw new WorkerError("disk_low", `only ${free} bytes free in ${home.root}; minFreeDiskBytes is ${cfg.minFreeDiskBytes}`, { freeBytes: free });
    }
    const { resolved, refs } = resolveInput(home, req.input);
    const receipt = createJob(
      ctx,
      {
        opId: req.opId,
        intentHash: req.intentHash,
        kind: "run",
        recipe: req.recipe,
        job: req.job,
        environmentId: req.environmentId,
        priority: req.priority,
        resources: req.resources,
        deadlineSeconds: req.deadlineSeconds,
        graceSeconds: req.graceSeconds ?? cfg.defaultGraceSeconds,
        input: resolved,
        inputRefs: refs,
        slurmArray: req.slurmArray ?? null,
      },
      existing?.jobId,
    );
    return { jobId: receipt.jobId, created: true };
  });
  if (out.created) startWhatFits(home, cfg);
  return { receipt: currentReceipt(ctx, out.jobId), created: out.created };
}
