/**
 * Owner settings for data: allowed folders for registering files by path, the upload
 * size cap and the file limits passed to the profile job. One Setting row ("data") with
 * a revision; an update names the revision it read and a stale one is a CONFLICT.
 * Saving also rewrites the local worker's allowedRoots (worker-roots.ts).
 */
import { statSync } from "node:fs";
import path from "node:path";
import { controllerRuntime } from "@/server/controller/runtime";
import type { Db } from "@/server/db/client";
import { badInput, conflict } from "@/server/errors";
import { settingsRepository } from "./settings.repository";
import {
  DATA_SETTINGS_DEFAULTS,
  ZDataSettings,
  ZUpdateSettingsInput,
  ZUploadTestFaults,
  type SettingsView,
  type TDataSettings,
  type TUpdateSettingsInput,
  type TUploadTestFaults,
} from "./settings.schema";
import { syncWorkerAllowedRoots } from "./worker-roots";

export const DATA_SETTINGS_KEY = "data";
export const UPLOAD_FAULTS_KEY = "test.uploadFaults";

export const ALLOWED_ROOTS_EXPLANATION =
  "Files inside these folders on This computer can be registered as datasets by typing their path. " +
  "Trainyard copies the file into its own store (a snapshot) and never changes or deletes anything in these folders. " +
  "The training computer's worker checks every path itself: '..', symlinks that lead outside a folder, and FIFOs or devices are refused. " +
  "With no folder listed, data can only be uploaded.";

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === "P2002" || /Unique constraint/i.test(e?.message ?? "");
}

function localWorkerHome(): string | null {
  try {
    return controllerRuntime().home.workerHome;
  } catch {
    return null;
  }
}

/** Normalizes folder paths and checks each is an existing directory (not the whole disk). */
export function checkRoots(roots: string[]): string[] {
  const out: string[] = [];
  for (const raw of roots) {
    const p = path.normalize(raw).replace(/\/+$/, "") || "/";
    if (p === "/") throw badInput("Allowing the whole disk (/) is refused: name the folder that holds your data.");
    const st = statSync(p, { throwIfNoEntry: false });
    if (!st) throw badInput(`The folder ${p} does not exist on This computer.`);
    if (!st.isDirectory()) throw badInput(`${p} is not a folder.`);
    if (!out.includes(p)) out.push(p);
  }
  return out;
}

export function settingsService(db?: Db, opts: { workerHome?: string | null } = {}) {
  const repo = settingsRepository(db);
  const workerHome = () => (opts.workerHome !== undefined ? opts.workerHome : localWorkerHome());

  async function read(): Promise<{ values: TDataSettings; revision: number }> {
    const row = await repo.find(DATA_SETTINGS_KEY);
    if (!row) return { values: { ...DATA_SETTINGS_DEFAULTS }, revision: 0 };
    const parsed = ZDataSettings.safeParse({ ...DATA_SETTINGS_DEFAULTS, ...(JSON.parse(row.value) as object) });
    return { values: parsed.success ? parsed.data : { ...DATA_SETTINGS_DEFAULTS }, revision: row.revision };
  }

  /** Makes the local worker's config follow the setting; returns whether it now does. */
  function syncWorker(roots: string[]): boolean {
    const home = workerHome();
    if (!home) return false;
    try {
      syncWorkerAllowedRoots(home, roots);
      return true;
    } catch {
      return false;
    }
  }

  async function get(): Promise<SettingsView> {
    const { values, revision } = await read();
    return { values, revision, explanation: ALLOWED_ROOTS_EXPLANATION, workerConfigInSync: syncWorker(values.allowedRoots) };
  }

  async function update(raw: TUpdateSettingsInput): Promise<SettingsView> {
    const input = ZUpdateSettingsInput.parse(raw);
    const values: TDataSettings = { ...input.values, allowedRoots: checkRoots(input.values.allowedRoots) };
    const current = await read();
    const stale = () =>
      conflict(`The data settings were changed elsewhere since you opened them (revision ${current.revision}, you had ${input.revision}). Reload and try again.`, {
        currentRevision: current.revision,
      });
    if (input.revision === 0) {
      if (current.revision !== 0) throw stale();
      try {
        await repo.create(DATA_SETTINGS_KEY, JSON.stringify(values));
      } catch (err) {
        if (isUniqueViolation(err)) throw stale();
        throw err;
      }
    } else if ((await repo.updateAtRevision(DATA_SETTINGS_KEY, input.revision, JSON.stringify(values))) === 0) {
      throw stale();
    }
    return get();
  }

  return {
    get,
    update,
    /** The values in force (defaults until saved). */
    values: async () => (await read()).values,
    /** Test-only fault injection for the upload writer (see ZUploadTestFaults). */
    async uploadFaults(): Promise<TUploadTestFaults> {
      const row = await repo.find(UPLOAD_FAULTS_KEY);
      if (!row) return {};
      const parsed = ZUploadTestFaults.safeParse(JSON.parse(row.value));
      return parsed.success ? parsed.data : {};
    },
  };
}
