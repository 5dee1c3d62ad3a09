// Integration-test harness: builds dist/worker once per test process (esbuild, <1 s),
// makes throw-away worker homes under os.tmpdir() whose config points trainingDir at
// worker/test-fixtures/training and envsDir at the shared test envs dir
// (TRAINYARD_TEST_ENVS_DIR, default <repo>/.tmp/envs), and runs `control` as a real child
// process. Nothing of the worker is mocked.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { TReceipt } from "../../contracts/worker/receipt";
import { isTerminal } from "../../contracts/worker/states";

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const FIXTURE_TRAINING = path.join(REPO, "worker", "test-fixtures", "training");
export const TEST_ENVS_DIR = process.env.TRAINYARD_TEST_ENVS_DIR ?? path.join(REPO, ".tmp", "envs");
export const BUILD_ENV_SCRIPT = path.join(REPO, "training", "tools", "build_env.py");

let built: Promise<string> | null = null;
/** Build dist/worker once per test process; returns the bundle entry. */
export function buildBundle(): Promise<string> {
  built ??= (async () => {
    const mod = (await import(path.join(REPO, "scripts", "build-worker.mjs"))) as {
      buildWorker: () => Promise<{ entry: string }>;
    };
    return (await mod.buildWorker()).entry;
  })();
  return built;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface WorkerHome {
  home: string;
  entry: string;
  control(req: Record<string, unknown>): Promise<Json>;
  controlRaw(stdin: string | Buffer): Promise<{ code: number | null; stdout: string; stderr: string }>;
  cleanup(): void;
}

export async function makeHome(config: Record<string, unknown> = {}, homeDir?: string): Promise<WorkerHome> {
  const entry = await buildBundle();
  const home = homeDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "trainyard-worker-test-"));
  fs.mkdirSync(TEST_ENVS_DIR, { recursive: true });
  fs.writeFileSync(
    path.join(home, "config.json"),
    JSON.stringify({ trainingDir: FIXTURE_TRAINING, envsDir: TEST_ENVS_DIR, buildEnvScript: BUILD_ENV_SCRIPT, minFreeDiskBytes: 0, defaultGraceSeconds: 2, ...config }, null, 2),
  );
  const controlRaw = (stdin: string | Buffer) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [entry, "control", "--home", home], { stdio: ["pipe", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (c) => (stdout += c));
      child.stderr.on("data", (c) => (stderr += c));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stdout, stderr }));
      child.stdin.on("error", () => {}); // the worker may stop reading an oversize request
      child.stdin.end(stdin);
    });
  const control = async (req: Record<string, unknown>) => {
    const r = await controlRaw(JSON.stringify({ protocol: 2, ...req }));
    try {
      return JSON.parse(r.stdout);
    } catch {
      throw new Error(`worker control gave no JSON (exit ${r.code}): ${r.stdout.slice(0, 500)} ${r.stderr.slice(0, 2000)}`);
    }
  };
  return { home, entry, control, controlRaw, cleanup: () => fs.rmSync(home, { recursive: true, force: true }) };
}

export async function waitFor<T>(what: string, fn: () => Promise<T | null | undefined | false> | T | null | undefined | false, timeoutMs = 60_000, everyMs = 100): Promise<T> {
  const start = Date.now();
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

export async function waitForJob(w: WorkerHome, jobId: string, pred: (r: TReceipt) => boolean = (r) => isTerminal(r.state), timeoutMs = 60_000): Promise<TReceipt> {
  let last: TReceipt | null = null;
  try {
    return await waitFor(`job ${jobId}`, async () => {
      const res = await w.control({ op: "inspect", jobId });
      if (!res.ok) throw new Error(`inspect ${jobId}: ${JSON.stringify(res.error)}`);
      last = res.receipt;
      return pred(res.receipt) ? (res.receipt as TReceipt) : null;
    }, timeoutMs, 150);
  } catch (err) {
    throw new Error(`${(err as Error).message}; last receipt: ${JSON.stringify(last)}`);
  }
}

/** Read a receipt file directly (no control process): what survives with no controller. */
export function readReceiptFile(home: string, jobId: string): TReceipt | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(home, "receipts", `${jobId}.json`), "utf8"));
  } catch {
    return null;
  }
}

/** Build (or reuse) the fixture recipe's environment through the worker's own prepare. */
let envReady: Promise<string> | null = null;
export function fixtureEnv(): Promise<string> {
  envReady ??= (async () => {
    const w = await makeHome();
    try {
      const res = await w.control({ op: "prepare", opId: `fixture-env-${process.pid}`, recipe: "wk" });
      if (!res.ok) throw new Error(`prepare wk: ${JSON.stringify(res.error)}`);
      if (!res.ready) {
        const r = await waitForJob(w, res.jobId, undefined, 120_000);
        if (r.state !== "succeeded") throw new Error(`building the fixture env failed: ${JSON.stringify(r)}`);
      }
      return res.environmentId as string;
    } finally {
      w.cleanup();
    }
  })();
  return envReady;
}

const preparedEnvs = new WeakMap<WorkerHome, Map<string, string>>();
/** The environment id of `recipe` on this home's worker, built (once) through its own prepare when missing. */
export async function recipeEnvironment(w: WorkerHome, recipe: string): Promise<string> {
  const known = preparedEnvs.get(w) ?? new Map<string, string>();
  preparedEnvs.set(w, known);
  const id = known.get(recipe);
  if (id) return id;
  const res = await w.control({ op: "prepare", opId: `prep-${recipe}-${process.pid}-${Date.now()}`, recipe });
  if (!res.ok) throw new Error(`prepare ${recipe}: ${JSON.stringify(res.error)}`);
  if (!res.ready) {
    const r = await waitForJob(w, res.jobId, undefined, 600_000);
    if (r.state !== "succeeded") throw new Error(`building the ${recipe} environment failed: ${JSON.stringify(r)}`);
  }
  known.set(recipe, res.environmentId);
  return res.environmentId as string;
}

let recipeOps = 0;
/** Submits recipe.job on this home's worker (its environment prepared first); answers as `control` does. */
export async function submitRecipeJob(
  w: WorkerHome,
  recipe: string,
  job: string,
  input: Record<string, unknown>,
  o: { cpus?: number; ramGb?: number; deadlineSeconds?: number } = {},
): Promise<Json> {
  const opId = `${recipe}-${job}-${process.pid}-${++recipeOps}`;
  return w.control({
    op: "submit",
    opId,
    intentHash: `intent-${opId}`,
    recipe,
    job,
    environmentId: await recipeEnvironment(w, recipe),
    input,
    resources: { cpus: o.cpus ?? 1, ramGb: o.ramGb ?? 1 },
    deadlineSeconds: o.deadlineSeconds ?? 600,
  });
}

let opCounter = 0;
export async function submitJob(w: WorkerHome, job: string, input: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Promise<Json> {
  const environmentId = await fixtureEnv();
  const opId = `op-${process.pid}-${++opCounter}-${Date.now()}`;
  return w.control({
    op: "submit",
    opId,
    intentHash: `intent-${opId}`,
    recipe: "wk",
    job,
    environmentId,
    input,
    resources: { cpus: 1, ramGb: 0.1 },
    deadlineSeconds: 120,
    ...extra,
  });
}

let importCounter = 0;
/** Start an import job and wait for its end; returns the control answer and the final receipt. */
export async function importAndWait(w: WorkerHome, file: string, extra: Record<string, unknown> = {}): Promise<{ started: Json; receipt: TReceipt | null }> {
  const started = await w.control({ op: "import", opId: `import-${process.pid}-${++importCounter}-${Date.now()}`, path: file, ...extra });
  if (!started.ok) return { started, receipt: null };
  return { started, receipt: await waitForJob(w, started.receipt.jobId) };
}

/** Live processes whose process group is `pgid` (scan of /proc/<pid>/stat). */
export function groupPids(pgid: number): number[] {
  const out: number[] = [];
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const text = fs.readFileSync(`/proc/${name}/stat`, "utf8");
      const f = text.slice(text.lastIndexOf(")") + 2).split(" ");
      if (Number(f[2]) === pgid && f[0] !== "Z") out.push(Number(name));
    } catch {
      // exited while scanning
    }
  }
  return out;
}

export function pidAlive(pid: number): boolean {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return text.slice(text.lastIndexOf(")") + 2).split(" ")[0] !== "Z";
  } catch {
    return false;
  }
}
