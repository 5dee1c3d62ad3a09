/**
 * Inputs of the deployments API (tRPC router, CLI, pages) and the views it answers.
 * A deployment serves a registry version pinned, or follows an alias of its model.
 */
import { z } from "zod";
import { ZDeploymentMode, type DeploymentMode, type ServingKind } from "@/contracts/deployments/serving";
import { deploymentLifecycle, type DeploymentState } from "@/contracts/lifecycles";
import { ZAliasName } from "@/server/registry/registry.schema";

const id = z.string().min(1).max(64);

/** The smallest memory budget a deployment accepts (a Python process alone holds tens of MB). */
export const MIN_MEMORY_GB = 0.1;
/** The serving process group's memory budget by kind when the deployment names none: an LLM holds its base model and torch besides the adapter. */
export const DEFAULT_MEMORY_GB = { tabular: 2, llm: 4 } as const satisfies Record<ServingKind, number>;
const reason = z.string().trim().min(1).max(500);
/** Idle unload bounds in minutes: 6 seconds (the serving process checks twice a second) to 30 days (its lifetime). */
export const MIN_IDLE_MINUTES = 0.1;
export const MAX_IDLE_MINUTES = 30 * 24 * 60;

export { DEPLOYMENT_MODES, ZDeploymentMode, type DeploymentMode } from "@/contracts/deployments/serving";

export const ZDeploymentName = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]*$/, "Use letters, digits, spaces, '.', '_' or '-', starting with a letter or digit.");

/** What to serve: one version, pinned, or whatever an alias points at (followed). */
export const ZServeWhat = z.union([
  z.strictObject({ version: z.int().positive() }),
  z.strictObject({ alias: ZAliasName }),
]);

export const ZCreateDeploymentInput = z.strictObject({
  modelId: id,
  what: ZServeWhat,
  name: ZDeploymentName.optional(),
  /** Absent: the kind's own (on demand for a tabular model, resident for a LoRA fine-tune). */
  mode: ZDeploymentMode.optional(),
  /** A computer's name; the version's own computer when absent. */
  computer: z.string().trim().min(1).max(200).optional(),
  /**
   * Resident only: the serving process group's memory budget in GB (its job's
   * resources.ramGb; over it the process is stopped and the deployment says why). Absent:
   * the kind's default (DEFAULT_MEMORY_GB). At most what the computer has (checked on deploy).
   */
  memoryGb: z.number().min(MIN_MEMORY_GB, `A serving process needs at least ${MIN_MEMORY_GB} GB.`).max(4096).optional(),
  /**
   * Resident only: after this many minutes without a request its serving process unloads
   * (state `idle`, its memory given back) and the next request loads it again, waiting
   * for the load. Absent: it stays loaded until stopped.
   */
  idleUnloadMinutes: z.number().min(MIN_IDLE_MINUTES, `An idle time is at least ${MIN_IDLE_MINUTES * 60} seconds.`).max(MAX_IDLE_MINUTES).optional(),
});
export type TCreateDeploymentInput = z.input<typeof ZCreateDeploymentInput>;

export const ZDeploymentIdInput = z.strictObject({ deploymentId: id });
export const ZListDeploymentsInput = z.strictObject({ projectId: id });

/** Every action names the revision it decided on; a stale one is a CONFLICT (stale_revision). */
const action = { deploymentId: id, expectedRevision: z.int().positive() };
export const ZSwitchInput = z.strictObject({ ...action, version: z.int().positive(), why: reason });
export type TSwitchInput = z.infer<typeof ZSwitchInput>;
export const ZRollbackInput = z.strictObject({ ...action, why: reason, toRelease: z.int().positive().optional() });
export type TRollbackInput = z.infer<typeof ZRollbackInput>;
export const ZStopResumeInput = z.strictObject(action);
export type TStopResumeInput = z.infer<typeof ZStopResumeInput>;

export const ZCreateKeyInput = z.strictObject({ deploymentId: id, name: z.string().trim().min(1).max(100) });
export const ZRevokeKeyInput = z.strictObject({ deploymentId: id, keyId: id });

export const RELEASE_KINDS = ["create", "switch", "rollback", "alias"] as const;
export type ReleaseKind = (typeof RELEASE_KINDS)[number];

export interface ReleaseView {
  id: string;
  number: number;
  versionId: string;
  version: number;
  kind: ReleaseKind;
  why: string;
  actor: { kind: string; name: string };
  createdAt: Date;
}

export interface DeploymentView {
  id: string;
  projectId: string;
  name: string;
  mode: DeploymentMode;
  /** tabular: it answers /predict; llm (a LoRA fine-tune): /generate and /stream. */
  kind: ServingKind;
  state: DeploymentState;
  reason: string | null;
  revision: number;
  computer: { id: string; name: string };
  model: { id: string; name: string };
  /** The alias it follows; null when pinned to its release's version. */
  followsAlias: string | null;
  release: ReleaseView | null;
  /** Set while its SSH computer cannot be reached by its requests (health says `unreachable`); null otherwise. */
  unreachable: { since: Date; reason: string } | null;
  /** Resident: its serving process's memory budget in GB, and whether that is the kind's default; null on demand. */
  memory: { gb: number; isDefault: boolean } | null;
  /** Resident: minutes without a request before its process unloads (state idle); null: never (and on demand). */
  idleUnloadMinutes: number | null;
  /**
   * Resident: whether a switch loads the candidate beside the current release (`overlap`,
   * no failed request) or, on a computer without room for both budgets, unloads the
   * current one first (`downtime`: its routes answer 503 while the candidate loads, and
   * the old release is loaded again if the candidate fails); `detail` says the memory
   * behind it. Null on demand (nothing to load).
   */
  switchRoom: SwitchRoom | null;
  /** Paths of its public routes (the page prefixes the server's origin); `kind` says which it answers. */
  routes: { predict: string; generate: string; stream: string; health: string; invocations: string; openai: string };
  createdAt: Date;
}

export interface SwitchRoom {
  kind: "overlap" | "downtime";
  detail: string;
}

export interface KeyView {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
  /** A console's own key stops working at this time; other keys never expire. */
  expiresAt: Date | null;
}

export const isDeploymentState = (s: string): s is DeploymentState => deploymentLifecycle.isState(s);
