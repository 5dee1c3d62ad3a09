/**
 * "This computer": the worker that runs beside the server. At server start the
 * controller makes sure its Target row exists and writes the fields it owns in the
 * worker's `<home>/worker/config.json` (trainingDir, envsDir, buildEnvScript), keeping
 * any other field the owner set there. The worker reads only that file, never env vars.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ControllerRuntime } from "@/server/controller/runtime";
import type { Db } from "@/server/db/client";
import { LOCAL_TARGET_NAME } from "../targets.schema";
import { targetsRepository, type TargetRow } from "../targets.repository";

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
  mkdirSync(workerHome, { recursive: true, mode: 0o700 });
  const file = path.join(workerHome, "config.json");
  let current: Record<string, unknown> = {};
  if (existsSync(file)) {
    try {
      const parsed: unknown = JSON.parse(readFileSync(file, "utf8"));
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) current = parsed as Record<string, unknown>;
    } catch {
      // An unreadable config is replaced: the worker would refuse it anyway.
    }
  }
  const next = { ...current, ...settings };
  if (JSON.stringify(next) === JSON.stringify(current)) return;
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(next, null, 2) + "\n", { mode: 0o600 });
  renameSync(tmp, file);
}

export async function ensureLocalTarget(rt: ControllerRuntime, db?: Db): Promise<TargetRow> {
  writeLocalWorkerConfig(rt.home.workerHome, localWorkerSettings(rt));
  return targetsRepository(db).upsertLocal(LOCAL_TARGET_NAME, JSON.stringify({ workerHome: rt.home.workerHome }));
}
