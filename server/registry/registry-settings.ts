/**
 * The registry's settings, one Setting row ("registry") with a revision; defaults until
 * the owner saves some (Settings → Model registry, or models.updateSettings). An update
 * names the revision it read; a stale one is a CONFLICT and changes nothing.
 */
import { z } from "zod";
import type { Db } from "@/server/db/client";
import { parseStoredJson } from "@/server/db/stored-json";
import { conflict } from "@/server/errors";
import { settingsRepository } from "@/server/settings/settings.repository";
import { GIB } from "@/server/settings/settings.schema";

export const REGISTRY_SETTINGS_KEY = "registry";

export const REGISTRY_SETTINGS_DEFAULTS = { exportBytesPerProject: 2 * GIB, minUsefulGain: 0.001 } as const;

/** What an owner may save: bounded so a typo cannot make the registry refuse everything or nothing. */
export const ZRegistrySettingsValues = z.strictObject({
  /** Registered export bytes a project may hold (distinct archives counted once). */
  exportBytesPerProject: z
    .int()
    .min(1024, "The export budget must be at least 1 KiB.")
    .max(1024 * GIB, "The export budget can be at most 1 TiB."),
  /** How much better (on the primary metric, in its own units) a candidate must be to promote without acknowledgement. */
  minUsefulGain: z.number().nonnegative("The minimum useful gain cannot be negative.").max(1e9),
});
export type RegistrySettings = z.infer<typeof ZRegistrySettingsValues>;

/** Read back leniently: a field an older version saved is dropped, a missing one takes its default. */
const ZStoredRegistrySettings = z.object({
  exportBytesPerProject: ZRegistrySettingsValues.shape.exportBytesPerProject.catch(REGISTRY_SETTINGS_DEFAULTS.exportBytesPerProject),
  minUsefulGain: ZRegistrySettingsValues.shape.minUsefulGain.catch(REGISTRY_SETTINGS_DEFAULTS.minUsefulGain),
});

export const ZUpdateRegistrySettingsInput = z.strictObject({
  values: ZRegistrySettingsValues,
  /** The revision the editor read (0: never saved); a stale one is a CONFLICT. */
  revision: z.int().nonnegative(),
});
export type TUpdateRegistrySettingsInput = z.infer<typeof ZUpdateRegistrySettingsInput>;

export interface RegistrySettingsView {
  values: RegistrySettings;
  /** 0 while the owner has never saved (defaults in force). */
  revision: number;
  defaults: RegistrySettings;
}

export async function registrySettingsView(db: Db): Promise<RegistrySettingsView> {
  const row = await settingsRepository(db).find(REGISTRY_SETTINGS_KEY);
  const stored = parseStoredJson(ZStoredRegistrySettings, row?.value ?? "{}");
  return { values: stored ?? { ...REGISTRY_SETTINGS_DEFAULTS }, revision: row?.revision ?? 0, defaults: { ...REGISTRY_SETTINGS_DEFAULTS } };
}

export async function registrySettings(db: Db): Promise<RegistrySettings> {
  return (await registrySettingsView(db)).values;
}

export async function updateRegistrySettings(db: Db, raw: TUpdateRegistrySettingsInput): Promise<RegistrySettingsView> {
  const input = ZUpdateRegistrySettingsInput.parse(raw);
  const value = JSON.stringify(input.values);
  const stale = async () => {
    const now = await registrySettingsView(db);
    return conflict(`The registry settings were changed elsewhere (revision ${now.revision}, you had ${input.revision}). Reload and try again.`, {
      code: "stale_revision",
      currentRevision: now.revision,
    });
  };
  if (input.revision === 0) {
    try {
      await settingsRepository(db).create(REGISTRY_SETTINGS_KEY, value);
    } catch (err) {
      // Someone saved first: the unique key lets one creation in.
      if ((err as { code?: string }).code === "P2002") throw await stale();
      throw err;
    }
  } else {
    const changed = await settingsRepository(db).updateAtRevision(REGISTRY_SETTINGS_KEY, input.revision, value);
    if (changed === 0) throw await stale();
  }
  return registrySettingsView(db);
}
