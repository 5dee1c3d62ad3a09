/**
 * The registry's settings, one Setting row ("registry"); defaults until the owner saves
 * some. The settings page does not edit it yet: an operator (or a test) writes the row.
 */
import { z } from "zod";
import type { Db } from "@/server/db/client";
import { parseStoredJson } from "@/server/db/stored-json";
import { GIB } from "@/server/settings/settings.schema";

export const REGISTRY_SETTINGS_KEY = "registry";

export const ZRegistrySettings = z.object({
  /** Registered export bytes a project may hold (distinct archives counted once). */
  exportBytesPerProject: z.int().positive().default(2 * GIB),
  /** How much better (on the primary metric, in its own units) a candidate must be to promote without acknowledgement. */
  minUsefulGain: z.number().nonnegative().default(0.001),
});
export type RegistrySettings = z.infer<typeof ZRegistrySettings>;

export async function registrySettings(db: Db): Promise<RegistrySettings> {
  const row = await db.setting.findUnique({ where: { key: REGISTRY_SETTINGS_KEY }, select: { value: true } });
  return parseStoredJson(ZRegistrySettings, row?.value ?? null) ?? ZRegistrySettings.parse({});
}
