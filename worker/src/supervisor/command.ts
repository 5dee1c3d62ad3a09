// What the supervisor executes for a job: the recipe module in its private venv, or
// build_env.py for a prepare job, with the contract's environment variables.
import fs from "node:fs";
import path from "node:path";
import { servingSocketPath } from "../../../contracts/deployments/serving";
import type { TReceipt } from "../../../contracts/worker/receipt";
import type { WorkerConfig } from "../config";
import { WorkerError } from "../errors";
import { envDir, envReady, findRecipe } from "../recipes";

export interface JobPaths {
  jobDir: string;
  workDir: string;
  outputDir: string;
  checkpointDir: string;
  eventsFile: string;
  reportFile: string;
  inputFile: string;
  logFile: string;
  cancelFlag: string;
  /** How a job forked from a warm runner ended, written by its leader process. */
  exitStatusFile: string;
}

export function jobPaths(jobDir: string): JobPaths {
  return {
    jobDir,
    workDir: path.join(jobDir, "work"),
    outputDir: path.join(jobDir, "output"),
    checkpointDir: path.join(jobDir, "checkpoints"),
    eventsFile: path.join(jobDir, "events.jsonl"),
    reportFile: path.join(jobDir, "report.json"),
    inputFile: path.join(jobDir, "input.json"),
    logFile: path.join(jobDir, "log"),
    cancelFlag: path.join(jobDir, "cancel-requested"),
    exitStatusFile: path.join(jobDir, "exit-status.json"),
  };
}

export interface PrepareInput {
  python: string;
  recipeDir: string;
  envsDir: string;
  buildEnvScript: string;
}

function baseEnv(): NodeJS.ProcessEnv {
  const env = {} as NodeJS.ProcessEnv;
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith("TRAINYARD_") || ["PYTHONHOME", "PYTHONPATH", "VIRTUAL_ENV", "PYTHONSTARTUP"].includes(k)) continue;
    env[k] = v;
  }
  return env;
}

function visibleDevices(r: TReceipt): string {
  const ids = [...(r.reservation?.gpuIds ?? []), ...(r.reservation?.gpuShare ? [r.reservation.gpuShare.gpuId] : [])];
  return ids.map((id) => id.replace(/^gpu-/, "")).join(",");
}

export interface Command {
  cmd: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  /** A job that may fork from its recipe's warm runner instead (the same module, arguments and environment). */
  warm?: { recipe: string; environmentId: string; preload: string[]; python: string; module: string; args: string[]; cpus: number };
  /** A serving job: its memory budget (stopped above it) and its socket's folder (removed at the end). */
  resident?: { memoryLimitBytes: number | null; runDir: string };
}

export function buildCommand(cfg: WorkerConfig, r: TReceipt, p: JobPaths): Command {
  const cpus = String(Math.max(1, Math.ceil(r.reservation?.cpus ?? r.resources.cpus)));
  const env: NodeJS.ProcessEnv = {
    ...baseEnv(),
    TRAINYARD_JOB_ID: r.jobId,
    TRAINYARD_WORK_DIR: p.workDir,
    TRAINYARD_OUTPUT_DIR: p.outputDir,
    TRAINYARD_CHECKPOINT_DIR: p.checkpointDir,
    TRAINYARD_EVENTS_FILE: p.eventsFile,
    TRAINYARD_REPORT_FILE: p.reportFile,
    TRAINYARD_CPUS: cpus,
    OMP_NUM_THREADS: cpus,
    OPENBLAS_NUM_THREADS: cpus,
    MKL_NUM_THREADS: cpus,
    PYTHONPATH: cfg.trainingDir,
    PYTHONUNBUFFERED: "1",
    HF_HUB_OFFLINE: "1",
    CUDA_VISIBLE_DEVICES: visibleDevices(r),
  };
  if (r.kind === "prepare") {
    const input = JSON.parse(fs.readFileSync(p.inputFile, "utf8")) as PrepareInput;
    if (!fs.existsSync(input.buildEnvScript)) {
      throw new WorkerError("environment_not_ready", `cannot build environments: ${input.buildEnvScript} does not exist`);
    }
    return {
      cmd: input.python,
      args: [input.buildEnvScript, "--recipe-dir", input.recipeDir, "--envs-dir", input.envsDir, "--python", input.python],
      env: { ...env, PIP_NO_INPUT: "1", PIP_DISABLE_PIP_VERSION_CHECK: "1" },
    };
  }
  if (!envReady(cfg.envsDir, r.environmentId)) {
    throw new WorkerError("environment_not_ready", `environment ${r.environmentId} is not ready under ${cfg.envsDir} (run prepare)`);
  }
  const recipe = findRecipe(cfg.trainingDir, r.recipe);
  const venv = path.join(envDir(cfg.envsDir, r.environmentId), "venv");
  const socket = servingSocketPath(cfg.home, r.jobId);
  const python = path.join(venv, "bin", "python");
  const args = [r.job, "--input", p.inputFile];
  // A serving job stays cold: it runs for hours, and its memory budget counts its own pages.
  const warm = cfg.warm.enabled && recipe.preload.length > 0 && !recipe.resident;
  return {
    cmd: python,
    args: ["-m", recipe.module, ...args],
    env: { ...env, ...(recipe.resident ? { TRAINYARD_SERVE_SOCKET: socket } : {}), VIRTUAL_ENV: venv, PATH: `${path.join(venv, "bin")}:${env.PATH ?? "/usr/bin:/bin"}` },
    ...(warm ? { warm: { recipe: recipe.name, environmentId: r.environmentId, preload: recipe.preload, python, module: recipe.module, args, cpus: Number(cpus) } } : {}),
    ...(recipe.resident ? { resident: { memoryLimitBytes: r.resources.ramGb > 0 ? r.resources.ramGb * 1024 ** 3 : null, runDir: path.dirname(socket) } } : {}),
  };
}
