/**
 * Per-deployment API keys: a random secret shown once, only its SHA-256 stored, usable only
 * on its own deployment's routes (the request guard checks the path; this checks the key).
 */
import { hashSecret, newSecret } from "@/server/auth/secret-token";
import type { Db } from "@/server/db/client";
import { notFound } from "@/server/errors";
import { findDeployment } from "./deployment-views";
import type { KeyView } from "./deployments.schema";
import { deploymentsRepository } from "./deployments.repository";
import { DEPLOYMENT_KEY_TAG } from "@/server/auth/deployment-key-check";

export async function createKey(db: Db, deploymentId: string, name: string): Promise<{ id: string; key: string }> {
  await findDeployment(db, deploymentId);
  const key = newSecret(DEPLOYMENT_KEY_TAG);
  const row = await deploymentsRepository(db).addKey({ deploymentId, name: name.trim(), prefix: key.slice(0, 10), keyHash: hashSecret(key) });
  return { id: row.id, key };
}

export async function listKeys(db: Db, deploymentId: string): Promise<KeyView[]> {
  const rows = await deploymentsRepository(db).keysOf(deploymentId);
  return rows.map((r) => ({ id: r.id, name: r.name, prefix: r.prefix, createdAt: r.createdAt, revokedAt: r.revokedAt }));
}

/** Revokes by id or by its shown prefix; NOT_FOUND when no active key of the deployment has it. */
export async function revokeKey(db: Db, deploymentId: string, idOrPrefix: string): Promise<void> {
  const count = await deploymentsRepository(db).revokeActiveKeys(deploymentId, idOrPrefix, new Date());
  if (count === 0) throw notFound(`The deployment has no active key ${idOrPrefix}; it may be revoked already.`);
}
