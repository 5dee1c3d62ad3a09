// Start a warm runner in the background: a detached Python process in the recipe's venv
// (trainyard_recipe/warm_runner.py) that imports the recipe's preload modules and then
// listens. The job that starts it does not wait for it: that job starts cold, later ones
// fork from the runner. Two starters at once are harmless (the runner's flock keeps one).
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ZProcessIdentity } from "../../../contracts/worker/receipt";
import { mkdirp, writeJsonAtomic } from "../fsx";
import { identityOf, isAlive } from "../proc";
import type { RunnerFiles } from "./runner-files";

/** A `failed` marker older than this is retried: the import may have failed for a passing reason (memory). */
const FAILED_RETRY_MS = 60 * 60 * 1000;

export interface RunnerLaunch {
  python: string;
  preload: string[];
  idleSeconds: number;
  /** The job environment without the job's own variables (PYTHONPATH, VIRTUAL_ENV, PATH, HF_HUB_OFFLINE, ...). */
  env: NodeJS.ProcessEnv;
}

/** Why warm start is off for these files right now, or null when a runner is starting or can be started. */
export function runnerUnavailable(files: RunnerFiles): string | null {
  const st = fs.statSync(files.failed, { throwIfNoEntry: false });
  if (!st || Date.now() - st.mtimeMs > FAILED_RETRY_MS) return null;
  let why = "it failed to start";
  try {
    why = (JSON.parse(fs.readFileSync(files.failed, "utf8")) as { error?: string }).error ?? why;
  } catch {
    // a half-read marker still means it failed
  }
  return `its warm runner could not start (${why}; see ${files.log})`;
}

/** When the runner last started for these files was started (ms since the epoch), or null. */
export function runnerStartedAt(files: RunnerFiles): number | null {
  return fs.statSync(files.pidFile, { throwIfNoEntry: false })?.mtimeMs ?? null;
}

/** Whether the runner last started for these files is alive (starting or listening). */
export function runnerAlive(files: RunnerFiles): boolean {
  try {
    return isAlive(ZProcessIdentity.parse(JSON.parse(fs.readFileSync(files.pidFile, "utf8"))));
  } catch {
    return false;
  }
}

/** Start a runner unless one is alive (starting or listening); returns whether one was started. */
export function startRunner(files: RunnerFiles, launch: RunnerLaunch): boolean {
  if (runnerAlive(files)) return false;
  mkdirp(path.dirname(files.log), 0o700);
  const socketDir = path.dirname(files.socket);
  mkdirp(socketDir, 0o700);
  const st = fs.statSync(socketDir);
  if (st.uid !== process.getuid?.() || (st.mode & 0o077) !== 0) {
    throw new Error(`${socketDir} is not a private folder of this user; warm start is off until it is removed`);
  }
  fs.rmSync(files.failed, { force: true });
  const log = fs.openSync(files.log, "a", 0o600);
  try {
    const child = spawn(
      launch.python,
      ["-m", "trainyard_recipe.warm_runner", "--socket", files.socket, "--lock", files.lock, "--failed-file", files.failed, "--preload", launch.preload.join(","), "--idle-seconds", String(launch.idleSeconds)],
      {
        detached: true,
        stdio: ["ignore", log, log],
        cwd: path.dirname(files.log),
        env: {
          ...launch.env,
          // Native pools must not start in the runner (a fork copies no thread): one thread
          // each here, the job's own caps are set in the forked child (threadpoolctl).
          OMP_NUM_THREADS: "1",
          OPENBLAS_NUM_THREADS: "1",
          MKL_NUM_THREADS: "1",
          // pyarrow's jemalloc starts a background thread at import otherwise.
          JE_ARROW_MALLOC_CONF: "background_thread:false",
        },
      },
    );
    child.on("error", () => {
      // A runner that never lived: jobs keep starting cold, and the next one tries again.
    });
    child.unref();
    const id = child.pid ? identityOf(child.pid) : null;
    if (id) writeJsonAtomic(files.pidFile, id);
    return id !== null;
  } finally {
    fs.closeSync(log);
  }
}
