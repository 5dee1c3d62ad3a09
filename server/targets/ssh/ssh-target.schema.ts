/**
 * What Trainyard stores for an SSH training computer (Target.config, kind "ssh") and the
 * inputs that create or change one. The connection is either an alias from the user's
 * ~/.ssh/config (resolved with `ssh -G` at enrollment and on every Test access, so the
 * user's whole config applies) or host, port, user and key path typed in. Secrets are
 * never here: keys stay in the user's files or ssh-agent.
 */
import { z } from "zod";
import type { TProbe } from "../targets.schema";
import { ZSlurmSettings } from "@/contracts/worker";
import { ZSafeRemotePath, ZSshAlias, ZSshEndpoint } from "./ssh-settings";

export const MIN_NODE_MAJOR = 18;

export const DEFAULT_WORKER_DIR = "~/.trainyard";

export const ZSshTargetConfig = z.object({
  alias: ZSshAlias.nullable(),
  endpoint: ZSshEndpoint,
  /** known_hosts files the user's ssh config names (alias mode); empty: the defaults. */
  knownHostsFiles: z.array(z.string().min(1).max(4096)).max(8).default([]),
  workerDir: ZSafeRemotePath,
  nodePath: ZSafeRemotePath.nullable(),
  /** A Slurm cluster's login node (computers add --slurm --ssh): written into its worker's config.json at Set up. */
  slurm: ZSlurmSettings.nullable().default(null),
});
export type TSshTargetConfig = z.infer<typeof ZSshTargetConfig>;

const ZDisplayName = z.string().trim().min(1, "Give the computer a name.").max(80, "Keep the name under 80 characters.");
const ZKeyPath = z
  .string()
  .trim()
  .max(4096)
  .refine((p) => p === "" || p.startsWith("/") || p.startsWith("~/"), "The key path is an absolute path (or ~/…) on this computer.");

export const ZSshConnectionInput = z.discriminatedUnion("mode", [
  z.strictObject({ mode: z.literal("alias"), alias: ZSshAlias }),
  z.strictObject({
    mode: z.literal("manual"),
    host: ZSshEndpoint.shape.host,
    port: z.coerce.number().int().min(1).max(65535).default(22),
    user: ZSshEndpoint.shape.user,
    keyPath: ZKeyPath.default(""),
  }),
]);
export type TSshConnectionInput = z.infer<typeof ZSshConnectionInput>;

const ZOptionalRemotePath = z
  .string()
  .trim()
  .nullable()
  .optional()
  .transform((s) => (s ? s : null))
  .pipe(ZSafeRemotePath.nullable());

export const ZAddServerInput = z.strictObject({
  name: ZDisplayName,
  connection: ZSshConnectionInput,
  workerDir: z.string().trim().default(DEFAULT_WORKER_DIR).pipe(ZSafeRemotePath),
  nodePath: ZOptionalRemotePath,
});
/** Raw (a form) or already parsed (a router): parsing again is idempotent. */
export type TAddServerInput = z.input<typeof ZAddServerInput> | z.output<typeof ZAddServerInput>;

export const ZUpdateServerInput = ZAddServerInput.extend({ id: z.string().min(1).max(64) });
export type TUpdateServerInput = z.input<typeof ZUpdateServerInput> | z.output<typeof ZUpdateServerInput>;

export const ZAcceptHostKeyInput = z.strictObject({
  id: z.string().min(1).max(64),
  /** The fingerprint the owner saw: accepted only if it is still the one presented. */
  fingerprint: z.string().regex(/^SHA256:[A-Za-z0-9+/]{43}$/, "A SHA256 fingerprint as ssh-keygen prints it."),
});

export const ZForgetHostKeyInput = z.strictObject({ id: z.number().int().positive() });

export const ZSetEnabledInput = z.strictObject({ id: z.string().min(1).max(64), enabled: z.boolean() });

/** The host key a server presented and Trainyard refused, kept for the owner to accept. */
export const ZHostKeyProblem = z.object({
  status: z.enum(["unknown", "changed", "revoked"]),
  hostName: z.string(),
  keyType: z.string(),
  key: z.string(),
  fingerprint: z.string(),
  knownFingerprints: z.array(z.string()).default([]),
  seenAt: z.string(),
});
export type THostKeyProblem = z.infer<typeof ZHostKeyProblem>;

export interface AccessReport {
  /** Set when the server's host key was refused: accept it (after checking) and test again. */
  hostKeyRefused: string | null;
  node: { version: string | null; ok: boolean; message: string | null };
  sessionWarning: string | null;
  install: { version: string | null; checksum: string | null; current: boolean };
  probe: TProbe | null;
  problems: string[];
}

/** What Set up will copy, shown before it starts; destination is the worker directory as entered. */
export interface SetupPlanView {
  version: string;
  files: number;
  bytes: number;
  destination: string;
  host: string;
}

