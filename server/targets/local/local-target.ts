/**
 * "This computer": the worker that runs beside the server. At server start the
 * controller makes sure its Target row exists and writes the fields it owns in the
 * worker's `<home>/worker/config.json` (trainingDir, envsDir, buildEnvScript), keeping
 * any other field the owner set there. The worker reads only that file, never env vars.
 */
import path from "node:path";
import type { ControllerRuntime } from "@/server/config/runtime";
import type { Db } from "@/server/db/client";
import { LOCAL_TARGET_NAME } from "../targets.schema";
import { targetsRepository, type TargetRow } from "../targets.repository";
import { mergeWorkerConfig } from "./worker-config-file";

export interface LocalWorkerSettings {
  trainingDir: string;
  envsDir: string;
  buildEnvScript: string;
}

export function localWorkerSettings(rt: ControllerRuntime): LocalWorkerSettings {
  return {
    trainingDir: rt.config.trainingDir ?? path.join(rt.repoRoot, "training"),
    envsDir: rt.config.envsDir ?? path.join(rt.home.workerHome, "envs"),
    // Test recipe folders have no tools/: the builder always comes from this install.
    buildEnvScript: path.join(rt.repoRoot, "training", "tools", "build_env.py"),
  };
}

/** Writes the controller-owned fields of config.json atomically (temp file + rename). */
export function writeLocalWorkerConfig(workerHome: string, settings: LocalWorkerSettings): void {
  mergeWorkerConfig(workerHome, { ...settings });
}

export async function ensureLocalTarget(rt: ControllerRuntime, db?: Db): Promise<TargetRow> {
  writeLocalWorkerConfig(rt.home.workerHome, localWorkerSettings(rt));
  return targetsRepository(db).upsertLocal(LOCAL_TARGET_NAME, JSON.stringify({ workerHome: rt.home.workerHome }));
}
