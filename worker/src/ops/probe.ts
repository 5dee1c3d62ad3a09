// probe: who and what this worker is — identity, capacity, disk, GPUs, Pythons,
// installed environments, recipes with their environment id, and problems found.
import fs from "node:fs";
import os from "node:os";
import type { z } from "zod";
import type { ZProbeRequest } from "../../../contracts/worker/requests";
import { detectGpus } from "../gpus";
import { slurmJobCapacity, slurmProbe } from "../slurm/probe";
import { diskFreeBytes } from "../ledger";
import { probePythons } from "../python";
import { discoverRecipes, envReady, listEnvironments, recipeEnvironmentId } from "../recipes";
import { listReceipts } from "../receipts";
import { WORKER_PROTOCOL, WORKER_VERSION } from "../version";
import type { Ctx } from "./context";

function readTrim(f: string): string | null {
  try {
    return fs.readFileSync(f, "utf8").trim();
  } catch {
    return null;
  }
}

export function probe(ctx: Ctx, req: z.output<typeof ZProbeRequest>) {
  const { cfg, home } = ctx;
  const { gpus, problem: gpuProblem } = detectGpus();
  const pythons = probePythons(cfg.pythonCandidates);
  const chosen = pythons.find((p) => p.canCreateVenv) ?? null;
  const found = discoverRecipes(cfg.trainingDir);
  const recipes = found.recipes.map((r) => {
    const environmentId = chosen?.version ? recipeEnvironmentId(r, chosen.version) : null;
    return {
      name: r.name,
      version: r.version,
      description: r.description,
      module: r.module,
      dir: r.dir,
      jobs: r.jobs,
      environmentId,
      environmentReady: environmentId ? envReady(cfg.envsDir, environmentId) : false,
    };
  });
  const problems = [
    ...listReceipts(home).problems,
    ...found.problems.map((m) => ({ kind: "recipe_invalid", jobId: null, path: cfg.trainingDir, message: m })),
  ];
  if (!fs.existsSync(cfg.trainingDir)) problems.push({ kind: "training_missing", jobId: null, path: cfg.trainingDir, message: "trainingDir does not exist" });
  const slurm = cfg.slurm ? slurmProbe(home, cfg.slurm, req.checkSharedHome === true) : null;
  if (slurm?.problem) problems.push({ kind: "slurm", jobId: null, path: cfg.slurm?.slurmConf ?? "", message: slurm.problem });
  if (!chosen) problems.push({ kind: "no_python", jobId: null, path: "", message: "no Python candidate can create venvs: apt install python3-venv" });
  return {
    workerId: home.workerId(),
    version: WORKER_VERSION,
    workerProtocol: WORKER_PROTOCOL,
    machineId: readTrim("/etc/machine-id"),
    bootId: readTrim("/proc/sys/kernel/random/boot_id"),
    hostname: os.hostname(),
    platform: `${process.platform}-${process.arch}`,
    home: home.root,
    trainingDir: cfg.trainingDir,
    envsDir: cfg.envsDir,
    cpus: os.cpus().length,
    ramBytes: os.totalmem(),
    diskFreeBytes: diskFreeBytes(home.root),
    capacity: (slurm && slurmJobCapacity(slurm)) ?? { cpus: cfg.capacity.cpus, ramGb: cfg.capacity.ramGb, gpus: cfg.capacity.gpus ?? gpus.length },
    gpus,
    gpuProblem,
    pythons,
    chosenPython: chosen?.path ?? null,
    environments: listEnvironments(cfg.envsDir),
    recipes,
    problems,
    slurm,
  };
}
