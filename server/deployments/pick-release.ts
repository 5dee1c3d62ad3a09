/**
 * Which registry version a deployment may serve: a version of its model whose export is
 * verified in managed storage (restored by hash when it can be), never a removed one.
 */
import type { Db } from "@/server/db/client";
import { conflict } from "@/server/errors";
import { checkVersionExport } from "@/server/registry/export-check";
import { aliasTarget } from "@/server/registry/promote";
import { findVersion, type VersionView } from "@/server/registry/registry-views";

export async function servableVersion(db: Db, v: VersionView): Promise<VersionView> {
  const checked = await checkVersionExport(db, v);
  if (checked.status !== "registered") {
    throw conflict(`Version ${v.number} cannot be deployed: its export is not in managed storage (${checked.status}). Register it again from its experiment, or pick another version.`, { code: "export_missing" });
  }
  return checked;
}

export async function versionByNumber(db: Db, modelId: string, number: number): Promise<VersionView> {
  return servableVersion(db, await findVersion(db, modelId, number));
}

export async function versionByAlias(db: Db, modelId: string, alias: string): Promise<VersionView> {
  const v = await aliasTarget(db, modelId, alias);
  if (!v) throw conflict(`The model has no alias "${alias}" yet; promote a version to it first, or deploy a version by number.`, { code: "alias_unset" });
  return servableVersion(db, v);
}
