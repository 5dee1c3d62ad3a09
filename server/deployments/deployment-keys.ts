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

/** How long a console's own key works: a visit to the page, not a client's lifetime. */
export const CONSOLE_KEY_MINUTES = 60;

/**
 * The deployment page's consoles call the same public routes a client does, and a
 * deployment answers only to a key or a signed-in owner. With no owner password there is
 * no session to send, so the page gets a key of its own: short-lived, listed with the
 * others (revocable), and the expired ones are deleted as the next is made so visits do not
 * pile keys up. It grants nothing new: the same caller could create a lasting key here.
 */
export async function createConsoleKey(db: Db, deploymentId: string, now = new Date()): Promise<{ key: string; expiresAt: Date }> {
  await findDeployment(db, deploymentId);
  const repo = deploymentsRepository(db);
  await repo.deleteExpiredKeys(deploymentId, now);
  const expiresAt = new Date(now.getTime() + CONSOLE_KEY_MINUTES * 60_000);
  const key = newSecret(DEPLOYMENT_KEY_TAG);
  await repo.addKey({ deploymentId, name: "Console of the deployment page", prefix: key.slice(0, 10), keyHash: hashSecret(key), expiresAt });
  return { key, expiresAt };
}

/** The deployment's keys, revoked ones included (history); an expired console key works no more and is left out. */
export async function listKeys(db: Db, deploymentId: string, now = new Date()): Promise<KeyView[]> {
  const rows = (await deploymentsRepository(db).keysOf(deploymentId)).filter((r) => !r.expiresAt || r.expiresAt > now);
  return rows.map((r) => ({ id: r.id, name: r.name, prefix: r.prefix, createdAt: r.createdAt, revokedAt: r.revokedAt, expiresAt: r.expiresAt }));
}

/** Revokes by id or by its shown prefix; NOT_FOUND when no active key of the deployment has it. */
export async function revokeKey(db: Db, deploymentId: string, idOrPrefix: string): Promise<void> {
  const count = await deploymentsRepository(db).revokeActiveKeys(deploymentId, idOrPrefix, new Date());
  if (count === 0) throw notFound(`The deployment has no active key ${idOrPrefix}; it may be revoked already.`);
}
