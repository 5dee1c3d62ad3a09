/**
 * Before a version takes an alias its export is verified (and restored by hash when it
 * can be); the version's status records what was found, so the gate reads the truth.
 */
import type { Db } from "@/server/db/client";
import { badInput } from "@/server/errors";
import { ensureManagedExport } from "./managed-export";
import { markExport } from "./version-store";
import { parseVersionServing } from "./version-serving";
import type { VersionView } from "./registry-views";
import { registryRepository } from "./registry.repository";

export async function checkVersionExport(db: Db, v: VersionView): Promise<VersionView> {
  // A removed version stays in the history but never takes an alias again.
  if (v.status === "removed") throw badInput(`Version ${v.number} was removed from the registry; it cannot be selected.`, { code: "version_removed" });
  const row = await registryRepository(db).servingColumnOf(v.id);
  const found = await ensureManagedExport(db, v.exportSha256, parseVersionServing(row?.serving ?? null)?.exportJobOpId ?? null);
  await markExport(db, v.id, found.present, found.present ? (found.restored ? "restored from the worker by hash" : null) : found.reason);
  return { ...v, status: found.present ? "registered" : "export_missing" };
}
