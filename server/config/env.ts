/**
 * The one place that reads process.env for the app. Parsed once at start with zod;
 * tests pass their own record instead.
 */
import os from "node:os";
import path from "node:path";
import { z } from "zod";

const Env = z.object({
  TRAINYARD_HOME: z.string().min(1).optional(),
  TRAINYARD_HOST: z.string().min(1).default("127.0.0.1"),
  TRAINYARD_PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  TRAINYARD_URL: z.string().url().optional(),
  TRAINYARD_TOKEN: z.string().min(1).optional(),
  // Minutes a job may stay unreachable before it becomes `unknown`.
  TRAINYARD_UNREACHABLE_MINUTES: z.coerce.number().positive().default(5),
  TRAINYARD_RECONCILE_MS: z.coerce.number().int().positive().default(2000),
  // Recipe environments folder for the local worker (tests share one); default: <home>/worker/envs.
  TRAINYARD_ENVS_DIR: z.string().min(1).optional(),
  // "0": This computer builds recipe environments only when a job first needs them, not
  // ahead of a first training at start (a metered connection, a small disk).
  TRAINYARD_PREPARE_AHEAD: z.enum(["0", "1"]).default("1"),
  // Recipes folder the local worker runs from; default: <repo>/training.
  TRAINYARD_TRAINING_DIR: z.string().min(1).optional(),
  // The worker bundle for This computer; default: <repo>/dist/worker/trainyard-worker.mjs.
  TRAINYARD_WORKER_BUNDLE: z.string().min(1).optional(),
  // How long one worker control call may take before the worker counts as unreachable.
  TRAINYARD_WORKER_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
  // The OpenSSH client config `ssh -G` reads for host aliases; default: the user's ~/.ssh/config.
  TRAINYARD_SSH_CONFIG: z.string().min(1).optional(),
  // The origin people reach this server at through a reverse proxy, e.g. https://ml.example.com.
  TRAINYARD_PUBLIC_ORIGIN: z
    .string()
    .url()
    .refine((v) => /^https?:$/.test(new URL(v).protocol) && new URL(v).origin === v.replace(/\/$/, ""), "must be an origin like https://ml.example.com (scheme, host, optional port; no path)")
    .optional(),
  // The address of that proxy: only its X-Forwarded-For is believed.
  TRAINYARD_TRUSTED_PROXY: z.union([z.ipv4(), z.ipv6()]).optional(),
  // The notifier's first retry delay; later retries scale from it (x4, x20, x120, x720). Tests shorten it.
  TRAINYARD_NOTIFY_RETRY_MS: z.coerce.number().int().positive().default(30_000),
  // ssh-agent, used for SSH computers (keys with a passphrase live there).
  SSH_AUTH_SOCK: z.string().min(1).optional(),
});

export interface AppConfig {
  home: string;
  host: string;
  port: number;
  url: string;
  token: string | undefined;
  unreachableMinutes: number;
  reconcileMs: number;
  envsDir: string | undefined;
  prepareAhead: boolean;
  trainingDir: string | undefined;
  workerBundle: string | undefined;
  workerTimeoutMs: number;
  sshConfig: string | undefined;
  sshAuthSock: string | undefined;
  publicOrigin: string | undefined;
  trustedProxy: string | undefined;
  notifyRetryMs: number;
}

export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  // An empty variable (TRAINYARD_TOKEN= in a shell) means "not set", as in most tools.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = Env.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `Invalid setting ${issue?.path.join(".") ?? "?"}: ${issue?.message ?? "bad value"}`,
    );
  }
  const e = parsed.data;
  // The data home is the user's, chosen at run time: the web build must not trace files from it.
  const home = path.resolve(/* turbopackIgnore: true */ e.TRAINYARD_HOME ?? path.join(os.homedir(), ".trainyard"));
  const urlHost = e.TRAINYARD_HOST.includes(":") ? `[${e.TRAINYARD_HOST}]` : e.TRAINYARD_HOST;
  return {
    home,
    host: e.TRAINYARD_HOST,
    port: e.TRAINYARD_PORT,
    url: e.TRAINYARD_URL ?? `http://${urlHost === "0.0.0.0" ? "127.0.0.1" : urlHost}:${e.TRAINYARD_PORT}`,
    token: e.TRAINYARD_TOKEN,
    unreachableMinutes: e.TRAINYARD_UNREACHABLE_MINUTES,
    reconcileMs: e.TRAINYARD_RECONCILE_MS,
    envsDir: e.TRAINYARD_ENVS_DIR ? path.resolve(e.TRAINYARD_ENVS_DIR) : undefined,
    prepareAhead: e.TRAINYARD_PREPARE_AHEAD === "1",
    trainingDir: e.TRAINYARD_TRAINING_DIR ? path.resolve(e.TRAINYARD_TRAINING_DIR) : undefined,
    workerBundle: e.TRAINYARD_WORKER_BUNDLE ? path.resolve(e.TRAINYARD_WORKER_BUNDLE) : undefined,
    workerTimeoutMs: e.TRAINYARD_WORKER_TIMEOUT_MS,
    sshConfig: e.TRAINYARD_SSH_CONFIG ? path.resolve(e.TRAINYARD_SSH_CONFIG) : undefined,
    sshAuthSock: e.SSH_AUTH_SOCK,
    publicOrigin: e.TRAINYARD_PUBLIC_ORIGIN ? new URL(e.TRAINYARD_PUBLIC_ORIGIN).origin : undefined,
    trustedProxy: e.TRAINYARD_TRUSTED_PROXY,
    notifyRetryMs: e.TRAINYARD_NOTIFY_RETRY_MS,
  };
}
