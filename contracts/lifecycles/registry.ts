/**
 * Lifecycles of the model registry (issue 15) and of deployments (issue 16): tables only,
 * for the services those issues build.
 *
 * A model version is immutable; what changes is whether its export is in managed storage.
 * `registering` copies (or restores, by hash, from the worker that made it) the verified
 * export; without it the version is `export_missing` and cannot be promoted, until a later
 * restore succeeds. Retention may remove a version that is neither selected nor aliased.
 *
 * A deployment loads a release, serves it (`ready`), loads a candidate beside it while
 * `switching` (a failed candidate never becomes current: back to `ready` on the old release,
 * or `failed` when the old one cannot be reloaded), and is `stopped` only once its serving
 * process group is gone. A resident deployment with an idle time unloads its process after
 * that long without a request (`idle`) and loads again on the next one. When its computer
 * has no room for two releases, a switch unloads the old one first (a short downtime) and
 * loads it again if the candidate fails. Stop, resume and retry are actions, so nothing is terminal.
 */
import { z } from "zod";
import { defineLifecycle } from "./define";

export const modelVersionLifecycle = defineLifecycle({
  name: "model version",
  states: ["registering", "registered", "export_missing", "removed"],
  initial: ["registering"],
  terminal: ["removed"],
  transitions: {
    registering: ["registered", "export_missing"],
    registered: ["export_missing", "removed"],
    export_missing: ["registered", "removed"],
    removed: [],
  },
});

/** Why a deployment loads: the owner asked (create, resume), a request woke it, the restart policy, or a switch cut short. */
export const ZDeploymentLoading = z.strictObject({
  cause: z.enum(["start", "wake", "restart", "reload"]),
  /** For a restart: which one within the policy's window (server/deployments/restart-policy.ts). */
  attempt: z.int().positive().optional(),
});
/** How a switch goes: the candidate beside the current release, or the current one unloaded first (a short downtime). */
export const ZDeploymentSwitching = z.strictObject({ plan: z.enum(["overlap", "downtime"]), toRelease: z.int().positive() });
/** A failure the restart policy will carry out a restart for, and when; null: none pending. */
export const ZDeploymentFailed = z.strictObject({ restart: z.strictObject({ attempt: z.int().positive(), dueAt: z.iso.datetime() }).nullable() });

export const deploymentLifecycle = defineLifecycle({
  name: "deployment",
  states: ["loading", "ready", "switching", "idle", "stopping", "stopped", "failed"],
  initial: ["loading"],
  terminal: [],
  transitions: {
    loading: ["ready", "stopping", "failed"],
    ready: ["switching", "idle", "stopping", "failed"],
    // → loading: a switch without room for both, cut by a restart after its old release was unloaded.
    // → idle: a switch asked while idle whose candidate did not load (the current release stays, unloaded).
    switching: ["ready", "idle", "loading", "stopping", "failed"],
    // Its serving process unloaded after its idle time: a request (or Resume) loads it again.
    idle: ["loading", "switching", "stopping"],
    stopping: ["stopped", "failed"],
    stopped: ["loading"],
    failed: ["loading", "stopping"],
  },
  payloads: { loading: ZDeploymentLoading, switching: ZDeploymentSwitching, failed: ZDeploymentFailed },
});

/** The data each state of a deployment carries (absent for the others). */
export interface DeploymentStateData {
  loading: z.infer<typeof ZDeploymentLoading>;
  switching: z.infer<typeof ZDeploymentSwitching>;
  failed: z.infer<typeof ZDeploymentFailed>;
}

export type ModelVersionStatus = (typeof modelVersionLifecycle.states)[number];
export type DeploymentState = (typeof deploymentLifecycle.states)[number];
