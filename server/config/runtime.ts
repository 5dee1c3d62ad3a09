/**
 * What the controller needs to reach This computer's worker: the app config, the home
 * layout and the repository root. Set once at server start by the background loops; kept
 * on globalThis because Next.js bundles route handlers apart from the server entry and a
 * module-level variable would exist twice in one process. It lives in config/, below
 * every domain: targets, experiments and settings read it, and the controller's loops
 * (which import those domains) set it, so a home inside controller/ made an import cycle.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AppConfig } from "@/server/config/env";
import { repoRootAbove } from "@/server/config/repo-root";
import type { HomePaths } from "@/server/config/home";
import { unavailable } from "@/server/errors";

export interface ControllerRuntime {
  config: AppConfig;
  home: HomePaths;
  repoRoot: string;
}

const KEY = Symbol.for("trainyard.controllerRuntime");
type Holder = { [KEY]?: ControllerRuntime };

/** The repository root, found from this file's real location (server entry only). */
export function repoRootFromHere(): string {
  return repoRootAbove(path.dirname(fileURLToPath(import.meta.url)));
}

export function setControllerRuntime(rt: ControllerRuntime): void {
  (globalThis as Holder)[KEY] = rt;
}

export function clearControllerRuntime(): void {
  delete (globalThis as Holder)[KEY];
}

export function controllerRuntime(): ControllerRuntime {
  const rt = (globalThis as Holder)[KEY];
  if (!rt) throw unavailable("The job controller is still starting; try again in a moment.");
  return rt;
}

export function workerBundlePath(rt: ControllerRuntime): string {
  return rt.config.workerBundle ?? path.join(rt.repoRoot, "dist", "worker", "trainyard-worker.mjs");
}
