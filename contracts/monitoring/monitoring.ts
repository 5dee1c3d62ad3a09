/**
 * What a deployment monitor answers (tRPC `monitors.*`, the CLI's `trainyard monitors`, the
 * MCP tool get_monitoring): one definition for every door. A window holds counts only; its
 * verdict says whether the inputs moved away from the reference, never whether the model
 * got worse.
 */
import { z } from "zod";
import { healthPolicyLifecycle, monitorLifecycle } from "@/contracts/lifecycles/monitor";

export const WINDOW_VERDICTS = ["ok", "drift", "not_enough_traffic"] as const;
export const ZWindowVerdict = z.enum(WINDOW_VERDICTS);
export type WindowVerdict = z.infer<typeof ZWindowVerdict>;

/** One input column in one closed window, against its threshold at the window's own size. */
export const ZColumnDrift = z.strictObject({
  name: z.string(),
  /** Jensen–Shannon distance (base 2) of the window's bins to the reference's. */
  js: z.number(),
  psi: z.number(),
  /** The distance that same-distribution windows of this size stay under 99 times in 100 (bootstrap of the reference). */
  threshold: z.number(),
  pValue: z.number(),
  drifted: z.boolean(),
  /** Share of the window's values that the reference never had as a category (categorical columns). */
  unseenShare: z.number(),
  missingShare: z.number(),
});
export type ColumnDrift = z.infer<typeof ZColumnDrift>;

/** Written once when a closed window is judged (MonitorWindow.verdict). */
export const ZStoredVerdict = z.strictObject({ verdict: ZWindowVerdict, columns: z.array(ZColumnDrift) });
export type StoredVerdict = z.infer<typeof ZStoredVerdict>;

export const ZMonitorWindow = z.strictObject({
  seq: z.int().positive(),
  openedAt: z.iso.datetime(),
  /** null: the window still collects requests. */
  closedAt: z.iso.datetime().nullable(),
  /** Requests counted (answered and refused). */
  n: z.int().nonnegative(),
  /** Rows of the requests whose rows were read (a refused body has none). */
  rows: z.int().nonnegative(),
  /** null while open, or closed and not judged yet. */
  verdict: ZWindowVerdict.nullable(),
  driftedColumns: z.array(z.string()),
  /** Refused or failed requests over all requests; null without requests. */
  failureRate: z.number().nullable(),
  errors: z.record(z.string(), z.int().nonnegative()),
  /** The longest run of failed requests in a row within it. */
  errorStreak: z.int().nonnegative(),
  /** Upper bound (ms) of the latency bucket holding the median / 95th percentile. */
  p50Ms: z.number().nullable(),
  p95Ms: z.number().nullable(),
  columns: z.array(ZColumnDrift),
  /** Column → counts per reference bin (the reference's order; see `reference`). */
  histograms: z.record(z.string(), z.array(z.int().nonnegative())),
});
export type MonitorWindow = z.infer<typeof ZMonitorWindow>;

/**
 * When a release is unhealthy and what then (Argo Rollouts' shape of limits): a closed
 * window with at least `minRequests` requests breaches when its failure rate or p95 is over
 * its limit; `failureLimit` breaching windows fail the release, as do `consecutiveErrors`
 * failed requests in a row (at once, mid-window). `inconclusiveLimit` windows in a row
 * without enough requests stop the policy for the owner. A failed release is rolled back to
 * `rollbackTo`, a release the owner approved by naming it here; never more than
 * `maxActionsPerDay` automatic actions on the deployment in 24 hours, none within
 * `cooldownMinutes` of the last.
 */
export const ZHealthPolicy = z.strictObject({
  maxFailureRate: z.number().min(0).max(1).default(0.05),
  maxP95Ms: z.number().positive().nullable().default(null),
  minRequests: z.int().min(1).default(20),
  failureLimit: z.int().min(1).max(100).default(1),
  inconclusiveLimit: z.int().min(1).max(100).default(3),
  consecutiveErrors: z.int().min(1).max(10_000).default(4),
  rollbackTo: z.int().positive(),
  cooldownMinutes: z.number().min(0).max(7 * 24 * 60).default(30),
  maxActionsPerDay: z.int().min(1).max(100).default(3),
});
export type HealthPolicy = z.infer<typeof ZHealthPolicy>;

export const ZPolicyView = z.strictObject({
  state: healthPolicyLifecycle.schema,
  reason: z.string().nullable(),
  limits: ZHealthPolicy,
});

/** A deployment's health in one word (server/monitoring/health.ts says how it is decided). */
export const DEPLOYMENT_HEALTH = ["healthy", "drifting", "breaching", "not_enough_traffic", "preparing", "paused", "failed", "not_watched"] as const;
export const ZDeploymentHealth = z.enum(DEPLOYMENT_HEALTH);
export type DeploymentHealth = z.infer<typeof ZDeploymentHealth>;

export const ZMonitorView = z.strictObject({
  id: z.string(),
  deploymentId: z.string(),
  deploymentName: z.string(),
  release: z.strictObject({ id: z.string(), number: z.int().positive(), version: z.int().nonnegative() }),
  state: monitorLifecycle.schema,
  reason: z.string().nullable(),
  health: ZDeploymentHealth,
  windowRequests: z.int().positive(),
  windowMinutes: z.number().positive().nullable(),
  minRows: z.int().positive(),
  alertAfter: z.int().positive(),
  /** The window whose counts are the reference (the owner accepted it, or a language model's first with enough traffic); null: the training data, or none yet. */
  referenceWindow: z.int().positive().nullable(),
  alertCooldownMinutes: z.number().nonnegative(),
  /** Alerts raised, oldest first: at most one per cooldown while an alert lasts (what the notifier sends). */
  alerts: z.array(z.strictObject({ windowSeq: z.int().positive(), columns: z.array(z.string()), at: z.iso.datetime() })),
  /** Columns that drifted in each of the last `alertAfter` judged windows; empty: no alert. */
  alertingColumns: z.array(z.string()),
  /** null: report only. */
  policy: ZPolicyView.nullable(),
  /** Oldest first. */
  windows: z.array(ZMonitorWindow),
  createdAt: z.iso.datetime(),
});
export type MonitorView = z.infer<typeof ZMonitorView>;

/** `monitors.projectHealth`: each deployment of a project and the health of the release it serves. */
export const ZProjectHealthInput = z.strictObject({ projectId: z.string().min(1) });
export const ZDeploymentHealthRow = z.strictObject({
  deploymentId: z.string(),
  deploymentName: z.string(),
  deploymentState: z.string(),
  monitorId: z.string().nullable(),
  health: ZDeploymentHealth,
  alertingColumns: z.array(z.string()),
});
export type DeploymentHealthRow = z.infer<typeof ZDeploymentHealthRow>;

export const ZCreateMonitorInput = z.strictObject({
  deploymentId: z.string().min(1),
  windowRequests: z.int().min(10).max(1_000_000).default(200),
  /** Also close a window this long after it opened (an hour: 60); fractions for tests and busy services. */
  windowMinutes: z.number().min(0.05).max(7 * 24 * 60).optional(),
  minRows: z.int().min(10).max(1_000_000).default(50),
  alertAfter: z.int().min(1).max(50).default(2),
  alertCooldownMinutes: z.number().min(0).max(30 * 24 * 60).default(60),
});
export const ZMonitorIdInput = z.strictObject({ monitorId: z.string().min(1) });
/** Makes a closed window's counts the reference from now on (`monitors reference ID --accept-window SEQ`). */
export const ZAcceptWindowInput = z.strictObject({ monitorId: z.string().min(1), seq: z.int().positive() });
/** Sets (or replaces, arming it again) the monitor's health policy; `rollbackTo` defaults to the release before the watched one. */
export const ZSetPolicyInput = z.strictObject({ monitorId: z.string().min(1), policy: ZHealthPolicy.partial({ rollbackTo: true }) });
export const ZDeploymentMonitorsInput = z.strictObject({ deploymentId: z.string().min(1) });

/** What the agents' get_monitoring answers: monitors of the project's deployments, their last windows without histograms. */
export const MAX_AGENT_WINDOWS = 10;
export const ZGetMonitoringInput = z.strictObject({
  deployment: z.string().min(1).describe("a deployment's name or id; default: every deployment of the project").optional(),
});
export const ZGetMonitoringOutput = z.strictObject({
  monitors: z.array(ZMonitorView.extend({ windows: z.array(ZMonitorWindow.omit({ histograms: true })) })),
});
