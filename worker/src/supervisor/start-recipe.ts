// Start a recipe job: forked from its environment's warm runner when the recipe has one
// (docs/dev/warm-start.md), else — and whenever the warm path fails before the job ran —
// a fresh interpreter, as always. The log says which, and why a warm start fell back.
import type { WorkerConfig } from "../config";
import { forkFromRunner } from "../warm/fork-job";
import { runnerFiles } from "../warm/runner-files";
import { runnerUnavailable, startRunner } from "../warm/start-runner";
import type { Command, JobPaths } from "./command";
import type { CappedLog } from "./logcap";
import { spawnCold, watchWarm, type RecipeProcess } from "./recipe-process";

/** The environment a runner starts with: the job's, less what belongs to one job. */
function runnerEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !k.startsWith("TRAINYARD_") && k !== "CUDA_VISIBLE_DEVICES")) as NodeJS.ProcessEnv;
}

export async function startRecipe(cfg: WorkerConfig, p: JobPaths, command: Command, log: CappedLog): Promise<RecipeProcess> {
  const warm = command.warm;
  if (!warm) return spawnCold(command, p.workDir);
  let why: string;
  try {
    const files = runnerFiles(cfg, warm);
    const unavailable = runnerUnavailable(files);
    if (unavailable) {
      why = unavailable;
    } else {
      const fork = await forkFromRunner(files.socket, {
        module: warm.module,
        args: warm.args,
        cwd: p.workDir,
        env: command.env,
        statusFile: p.exitStatusFile,
        cpus: warm.cpus,
      });
      if (fork.ok) {
        log.note(`started warm: forked from the ${warm.recipe} runner (${warm.preload.join(", ")} already imported)`);
        return watchWarm(fork, p.exitStatusFile);
      }
      why = fork.reason;
      if (fork.noRunner) {
        why = startRunner(files, { python: warm.python, preload: warm.preload, idleSeconds: cfg.warm.idleSeconds, env: runnerEnv(command.env) })
          ? `no warm runner for ${warm.recipe} was running on this computer; one is starting now for the next jobs`
          : `the warm runner for ${warm.recipe} is still starting`;
      }
    }
  } catch (err) {
    why = `warm start failed: ${(err as Error).message}`;
  }
  log.note(`started cold (a fresh Python process): ${why}`);
  return spawnCold(command, p.workDir);
}
