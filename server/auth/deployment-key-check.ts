/**
 * Checking a deployment key, for the request guard: kept apart from the rest of the
 * domain so the guard loads only this. The `tyd_` prefix tells a deployment key from an
 * owner token (`tyt_`).
 */
import { hashSecret, sameHash } from "@/server/auth/secret-token";
import type { Db } from "@/server/db/client";
import { authRepository } from "./auth.repository";

export const DEPLOYMENT_KEY_TAG = "tyd";

export const isDeploymentKey = (bearer: string) => bearer.startsWith(`${DEPLOYMENT_KEY_TAG}_`);

export type KeyCheck = { ok: true; keyId: string } | { ok: false; message: string };

/**
 * Whether `key` is an active key of `deploymentId`. The lookup goes by hash and the final
 * comparison is constant-time; every refusal answers the same words, so a caller cannot
 * tell a revoked or expired key from another deployment's or an unknown one.
 */
export async function verifyKey(db: Db, deploymentId: string, key: string): Promise<KeyCheck> {
  const refused: KeyCheck = { ok: false, message: "The deployment key is not valid for this deployment." };
  const hash = hashSecret(key);
  const row = await authRepository(db).deploymentKeyByHash(hash);
  if (!row || !sameHash(row.keyHash, hash) || row.revokedAt || row.deploymentId !== deploymentId) return refused;
  if (row.expiresAt && row.expiresAt.getTime() <= Date.now()) return refused;
  return { ok: true, keyId: row.id };
}
