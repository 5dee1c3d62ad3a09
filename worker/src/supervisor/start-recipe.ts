// Start a recipe job: forked from its environment's warm runner when the recipe has one
// (docs/dev/warm-start.md), else — and whenever the warm path fails before the job ran —
// a fresh interpreter, as always. The log says which, and why a warm start fell back.
import type { WorkerConfig } from "../config";
import { forkFromRunner, type WarmFork, type WarmRequest } from "../warm/fork-job";
import { runnerFiles, type RunnerFiles } from "../warm/runner-files";
import { runnerAlive, runnerStartedAt, runnerUnavailable, startRunner } from "../warm/start-runner";
import type { Command, JobPaths } from "./command";
import type { CappedLog } from "./logcap";
import { spawnCold, watchWarm, type RecipeProcess } from "./recipe-process";

/** How often a job waiting for its runner to finish starting tries it again. */
const RUNNER_POLL_MS = 150;

/** The environment a runner starts with: the job's, less what belongs to one job. */
function runnerEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !k.startsWith("TRAINYARD_") && k !== "CUDA_VISIBLE_DEVICES")) as NodeJS.ProcessEnv;
}

/**
 * Asks the runner again until it forks the job, the wait is over, or the runner can no
 * longer become warm (it wrote why, or it is gone): the job then starts cold, saying why.
 * The wait counts from the runner's start, so a runner stuck in its imports costs the jobs
 * after the first nothing: they find the wait over and start cold at once.
 */
async function forkOnceListening(files: RunnerFiles, request: WarmRequest, recipe: string, waitMs: number): Promise<WarmFork> {
  const until = (runnerStartedAt(files) ?? Date.now()) + waitMs;
  for (;;) {
    const unavailable = runnerUnavailable(files);
    if (unavailable) return { ok: false, reason: unavailable, noRunner: false };
    if (!runnerAlive(files)) return { ok: false, reason: `the warm runner for ${recipe} exited while it was starting (see ${files.log})`, noRunner: true };
    if (Date.now() >= until) return { ok: false, reason: `the warm runner for ${recipe} has not listened within ${Math.round(waitMs / 1000)} s of its start (see ${files.log})`, noRunner: false };
    await new Promise((r) => setTimeout(r, RUNNER_POLL_MS));
    const fork = await forkFromRunner(files.socket, request);
    if (fork.ok || !fork.noRunner) return fork;
  }
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
      const request = { module: warm.module, args: warm.args, cwd: p.workDir, env: command.env, statusFile: p.exitStatusFile, cpus: warm.cpus };
      let fork = await forkFromRunner(files.socket, request);
      let waited = 0;
      if (!fork.ok && fork.noRunner) {
        const started = startRunner(files, { python: warm.python, preload: warm.preload, idleSeconds: cfg.warm.idleSeconds, env: runnerEnv(command.env) });
        if (cfg.warm.startWaitSeconds > 0) {
          const since = Date.now();
          fork = await forkOnceListening(files, request, warm.recipe, cfg.warm.startWaitSeconds * 1000);
          waited = Date.now() - since;
        } else {
          fork = {
            ok: false,
            noRunner: true,
            reason: started ? `no warm runner for ${warm.recipe} was running on this computer; one is starting now for the next jobs` : `the warm runner for ${warm.recipe} is still starting`,
          };
        }
      }
      if (fork.ok) {
        const after = waited > 0 ? ` after waiting ${(waited / 1000).toFixed(1)} s for it to start` : "";
        log.note(`started warm: forked from the ${warm.recipe} runner (${warm.preload.join(", ")} already imported)${after}`);
        return watchWarm(fork, p.exitStatusFile);
      }
      why = fork.reason;
    }
  } catch (err) {
    why = `warm start failed: ${(err as Error).message}`;
  }
  log.note(`started cold (a fresh Python process): ${why}`);
  return spawnCold(command, p.workDir);
}
