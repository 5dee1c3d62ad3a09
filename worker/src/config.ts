// Worker configuration: `<home>/config.json`, zod-validated, every field optional.
// Never read from environment variables (SSH exec does not forward them); tests write
// the config file into the throw-away home they create.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { ZSlurmSettings, type TSlurmSettings } from "../../contracts/worker/slurm";
import { WorkerError } from "./errors";

export const ZWorkerConfig = z
  .object({
    /** Folders `peek` and `import` may read (realpath-checked). */
    allowedRoots: z.array(z.string()).default([]),
    envsDir: z.string().optional(),
    trainingDir: z.string().optional(),
    /** build_env.py; default `<trainingDir>/tools/build_env.py`. */
    buildEnvScript: z.string().optional(),
    pythonCandidates: z.array(z.string()).default(["python3", "python3.13", "python3.12", "python3.11", "python3.10"]),
    capacity: z
      .object({ cpus: z.number().positive().optional(), ramGb: z.number().positive().optional(), gpus: z.number().int().nonnegative().optional() })
      .default({}),
    minFreeDiskBytes: z.number().nonnegative().default(1024 ** 3),
    logCapBytes: z.number().int().positive().default(64 * 1024 ** 2),
    defaultGraceSeconds: z.number().nonnegative().default(30),
    /** Output manifest limits. */
    maxManifestFiles: z.number().int().positive().default(100_000),
    maxOutputBytes: z.number().positive().default(1024 ** 4),
    /** Warm start (docs/dev/warm-start.md): recipes with a preload list fork their jobs from a runner that imported it. */
    warm: z
      .object({
        enabled: z.boolean().default(true),
        /** A runner that started no job for this long exits (and frees its memory). */
        idleSeconds: z.number().positive().default(300),
        /**
         * How long a job that finds its runner not yet listening waits for it (its imports)
         * before starting cold; 0 starts it cold at once. A cold start beside a starting
         * runner imports the same libraries twice at once, on the CPUs the job needs.
         */
        startWaitSeconds: z.number().nonnegative().default(60),
      })
      .strict()
      .default({ enabled: true, idleSeconds: 300, startWaitSeconds: 60 }),
    /** A Slurm computer (docs/computers.md): its recipe jobs are submitted to this partition with sbatch. */
    slurm: ZSlurmSettings.optional(),
    /** Test hooks (documented in worker/README.md); never set in production. */
    testFaults: z
      .object({
        enospcAfterBytes: z.number().int().nonnegative().optional(),
        /** Sleep this long after each 1 MiB chunk an import job copies (to watch and cancel a copy). */
        importChunkDelayMs: z.number().int().nonnegative().max(10_000).optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type TWorkerConfigFile = z.input<typeof ZWorkerConfig>;

export interface WorkerConfig {
  home: string;
  allowedRoots: string[];
  envsDir: string;
  trainingDir: string;
  buildEnvScript: string;
  pythonCandidates: string[];
  capacity: { cpus: number; ramGb: number; gpus: number | null };
  minFreeDiskBytes: number;
  logCapBytes: number;
  defaultGraceSeconds: number;
  maxManifestFiles: number;
  maxOutputBytes: number;
  warm: { enabled: boolean; idleSeconds: number; startWaitSeconds: number };
  slurm: TSlurmSettings | null;
  testFaults: { enospcAfterBytes?: number | undefined; importChunkDelayMs?: number | undefined } | undefined;
}

/** Folder of the running bundle (dist/worker) or of these sources (worker/src). */
export function bundleDir(): string {
  return path.dirname(fileURLToPath(import.meta.url));
}

/** The bundle entry file, used to start detached supervisors. */
export function bundleEntry(): string {
  return process.argv[1] ? path.resolve(process.argv[1]) : fileURLToPath(import.meta.url);
}

function defaultTrainingDir(): string {
  const beside = path.join(bundleDir(), "training");
  return fs.existsSync(beside) ? beside : path.resolve(bundleDir(), "..", "..", "training");
}

export function loadConfig(homeArg: string): WorkerConfig {
  const home = path.resolve(homeArg);
  fs.mkdirSync(home, { recursive: true, mode: 0o700 });
  const file = path.join(home, "config.json");
  let raw: unknown = {};
  if (fs.existsSync(file)) {
    try {
      raw = JSON.parse(fs.readFileSync(file, "utf8"));
    } catch (err) {
      throw new WorkerError("bad_request", `worker config ${file} is not valid JSON: ${(err as Error).message}`);
    }
  }
  const parsed = ZWorkerConfig.safeParse(raw);
  if (!parsed.success) {
    throw new WorkerError("bad_request", `worker config ${file} is invalid: ${parsed.error.message}`, parsed.error.issues);
  }
  const c = parsed.data;
  const resolve = (p: string) => path.resolve(home, p);
  const trainingDir = c.trainingDir ? resolve(c.trainingDir) : defaultTrainingDir();
  return {
    home,
    allowedRoots: c.allowedRoots.map(resolve),
    envsDir: c.envsDir ? resolve(c.envsDir) : path.join(home, "envs"),
    trainingDir,
    buildEnvScript: c.buildEnvScript ? resolve(c.buildEnvScript) : path.join(trainingDir, "tools", "build_env.py"),
    pythonCandidates: c.pythonCandidates,
    capacity: {
      cpus: c.capacity.cpus ?? os.cpus().length,
      ramGb: c.capacity.ramGb ?? Math.floor((os.totalmem() / 1024 ** 3) * 10) / 10,
      gpus: c.capacity.gpus ?? null,
    },
    minFreeDiskBytes: c.minFreeDiskBytes,
    logCapBytes: c.logCapBytes,
    defaultGraceSeconds: c.defaultGraceSeconds,
    maxManifestFiles: c.maxManifestFiles,
    maxOutputBytes: c.maxOutputBytes,
    warm: c.warm,
    slurm: c.slurm ?? null,
    testFaults: c.testFaults,
  };
}
