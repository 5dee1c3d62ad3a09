/**
 * Owner settings for data: allowed folders for registering files by path, the upload
 * size cap and the file limits passed to the profile job. One Setting row ("data") with
 * a revision; an update names the revision it read and a stale one is a CONFLICT.
 * Saving also rewrites the local worker's allowedRoots (worker-roots.ts).
 */
import { statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadConfig } from "@/server/config/env";
import { controllerRuntime } from "@/server/config/runtime";
import type { Db } from "@/server/db/client";
import { badInput, conflict } from "@/server/errors";
import { settingsRepository } from "./settings.repository";
import {
  DATA_SETTINGS_DEFAULTS,
  ZStoredDataSettings,
  ZUpdateSettingsInput,
  ZUploadTestFaults,
  type RefusedRoot,
  type SettingsView,
  type TDataSettings,
  type TUpdateSettingsInput,
  type TUploadTestFaults,
} from "./settings.schema";
import { rootRefusal, type RootRuleContext } from "./root-rules";
import { slurmWorkerHomes } from "@/server/targets/slurm/slurm-homes";
import { syncWorkerAllowedRoots } from "./worker-roots";

export const DATA_SETTINGS_KEY = "data";
export const UPLOAD_FAULTS_KEY = "test.uploadFaults";

export const ALLOWED_ROOTS_EXPLANATION =
  "Files inside these folders on This computer can be registered as datasets by typing their path. " +
  "Trainyard copies the file into its own store (a snapshot) and never changes or deletes anything in these folders. " +
  "The training computer's worker checks every path itself: '..', symlinks that lead outside a folder, and FIFOs or devices are refused. " +
  "The whole disk, system folders (/etc, /usr, /var/lib, …), SSH key folders and Trainyard's own home cannot be allowed. " +
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

/** Where the protected places are for this server: its TRAINYARD_HOME and the user's home. */
function ruleContext(): RootRuleContext {
  let trainyardHome: string;
  try {
    trainyardHome = controllerRuntime().home.root;
  } catch {
    // Not started by the server (a script, a test): the configured home, never none.
    trainyardHome = loadConfig().home;
  }
  return { trainyardHome, userHome: os.homedir() };
}

/** A refused root: the error names the field, the folder and the reason (the form shows it by the field). */
function refuseRoot(root: string, reason: string) {
  return badInput(`The folder ${root} cannot be allowed: ${reason}.`, { field: "allowedRoots", root, reason });
}

/**
 * Normalizes folder paths and checks each is an existing directory that the root rules
 * (root-rules.ts) allow, both as typed and after resolving symlinks.
 */
export function checkRoots(roots: string[], ctx: RootRuleContext = ruleContext()): string[] {
  const out: string[] = [];
  for (const raw of roots) {
    const p = path.normalize(raw).replace(/\/+$/, "") || "/";
    // Judged as typed and, when it exists, by where its symlinks lead (rootRefusal does both).
    const reason = rootRefusal(p, ctx);
    if (reason) throw refuseRoot(p, reason);
    const st = statSync(p, { throwIfNoEntry: false });
    if (!st) throw badInput(`The folder ${p} does not exist on This computer.`, { field: "allowedRoots", root: p, reason: "does not exist" });
    if (!st.isDirectory()) throw badInput(`${p} is not a folder.`, { field: "allowedRoots", root: p, reason: "not a folder" });
    if (!out.includes(p)) out.push(p);
  }
  return out;
}

/** Saved roots the rules refuse (saved before a rule existed): left out of what is in force. */
function splitSavedRoots(roots: string[], ctx: RootRuleContext): { kept: string[]; refused: RefusedRoot[] } {
  const kept: string[] = [];
  const refused: RefusedRoot[] = [];
  for (const root of roots) {
    const reason = rootRefusal(root, ctx);
    if (reason) refused.push({ root, reason });
    else kept.push(root);
  }
  return { kept, refused };
}

export function settingsService(db?: Db, opts: { workerHome?: string | null; rules?: RootRuleContext } = {}) {
  const repo = settingsRepository(db);
  const workerHome = () => (opts.workerHome !== undefined ? opts.workerHome : localWorkerHome());
  const rules = () => opts.rules ?? ruleContext();

  async function read(): Promise<{ values: TDataSettings; revision: number; refusedRoots: RefusedRoot[] }> {
    const row = await repo.find(DATA_SETTINGS_KEY);
    if (!row) return { values: { ...DATA_SETTINGS_DEFAULTS }, revision: 0, refusedRoots: [] };
    // Stored values are read leniently: a field an older version saved is ignored, not fatal.
    const parsed = ZStoredDataSettings.safeParse({ ...DATA_SETTINGS_DEFAULTS, ...(JSON.parse(row.value) as object) });
    const values = parsed.success ? parsed.data : { ...DATA_SETTINGS_DEFAULTS };
    const { kept, refused } = splitSavedRoots(values.allowedRoots, rules());
    return { values: { ...values, allowedRoots: kept }, revision: row.revision, refusedRoots: refused };
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
    const { values, revision, refusedRoots } = await read();
    const inSync = syncWorker(values.allowedRoots);
    // Slurm computers whose login node this is read this machine's folders too.
    if (opts.workerHome === undefined) {
      for (const home of await slurmWorkerHomes(db)) {
        try {
          syncWorkerAllowedRoots(home, values.allowedRoots);
        } catch (err) {
          console.error(`allowed folders not written for the Slurm worker in ${home}: ${(err as Error).message}`);
        }
      }
    }
    return { values, revision, explanation: ALLOWED_ROOTS_EXPLANATION, workerConfigInSync: inSync, refusedRoots };
  }

  async function update(raw: TUpdateSettingsInput): Promise<SettingsView> {
    const input = ZUpdateSettingsInput.parse(raw);
    const values: TDataSettings = { ...input.values, allowedRoots: checkRoots(input.values.allowedRoots, rules()) };
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
