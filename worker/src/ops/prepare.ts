// prepare: build a recipe's private venv as a queued, supervised job (build_env.py is
// the command, its pip output the log). Idempotent: a ready environment answers at
// once; an active prepare of the same environment is returned instead of a second one.
import fs from "node:fs";
import type { z } from "zod";
import type { ZPrepareRequest } from "../../../contracts/worker/requests";
import { isActive } from "../../../contracts/worker/states";
import { WorkerError } from "../errors";
import { startWhatFits } from "../ledger";
import { choosePython } from "../python";
import { envDir, envReady, findRecipe, recipeEnvironmentId } from "../recipes";
import { listReceipts } from "../receipts";
import type { Ctx } from "./context";
import { createJob, existingForOp, withOpsLock } from "./createjob";
import { currentReceipt } from "./jobs";

const PREPARE_DEADLINE_S = 4 * 3600;

export function prepare(ctx: Ctx, req: z.output<typeof ZPrepareRequest>) {
  const { cfg, home } = ctx;
  const recipe = findRecipe(cfg.trainingDir, req.recipe);
  const py = choosePython(cfg.pythonCandidates, req.python);
  if (!py || !py.path || !py.version) {
    throw new WorkerError("no_python", `no Python interpreter here can create venvs (tried ${(req.python ? [req.python] : cfg.pythonCandidates).join(", ")}); on Debian: apt install python3-venv`);
  }
  const environmentId = recipeEnvironmentId(recipe, py.version);
  const envPath = envDir(cfg.envsDir, environmentId);
  if (envReady(cfg.envsDir, environmentId)) return { ready: true, environmentId, path: envPath, jobId: null, receipt: null };
  if (!fs.existsSync(cfg.buildEnvScript)) {
    throw new WorkerError("environment_not_ready", `cannot build environments: ${cfg.buildEnvScript} does not exist`);
  }
  const intentHash = `prepare:${recipe.name}:${environmentId}`;
  const out = withOpsLock(ctx, () => {
    const existing = existingForOp(ctx, req.opId, intentHash);
    if (existing?.receipt) return { jobId: existing.jobId, created: false };
    const active = listReceipts(home).receipts.find(
      (r) => r.kind === "prepare" && r.environmentId === environmentId && isActive(r.state),
    );
    if (active) return { jobId: active.jobId, created: false };
    const receipt = createJob(
      ctx,
      {
        opId: req.opId,
        intentHash,
        kind: "prepare",
        recipe: recipe.name,
        job: "prepare",
        environmentId,
        priority: req.priority,
        resources: { cpus: Math.min(1, cfg.capacity.cpus), ramGb: 0 },
        deadlineSeconds: PREPARE_DEADLINE_S,
        graceSeconds: cfg.defaultGraceSeconds,
        input: { python: py.path, recipeDir: recipe.dir, envsDir: cfg.envsDir, buildEnvScript: cfg.buildEnvScript },
        inputRefs: [],
      },
      existing?.jobId,
    );
    return { jobId: receipt.jobId, created: true };
  });
  if (out.created) startWhatFits(home, cfg);
  const receipt = currentReceipt(ctx, out.jobId);
  const ready = envReady(cfg.envsDir, environmentId);
  return { ready, environmentId, path: envPath, jobId: out.jobId, receipt };
}
