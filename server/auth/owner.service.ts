/**
 * The owner: password, login sessions and API tokens. Sessions and tokens are random
 * secrets of which only a hash is stored.
 */
import { badInput } from "@/server/errors";
import type { Db } from "@/server/db/client";
import { authRepository } from "./auth.repository";
import { hashPassword, MIN_PASSWORD_LENGTH, needsRehash, verifyPassword } from "./password";
import { hashSecret, newSecret, sameHash } from "./secret-token";

export { SESSION_COOKIE } from "./session-cookie";
const SESSION_DAYS = 14;

import type { Principal } from "./principal";
export type { Principal } from "./principal";

export function ownerService(db?: Db) {
  const repo = authRepository(db);
  return {
    hasPassword: async () => (await repo.ownerHash()) !== null,

    async setPassword(password: string): Promise<void> {
      if (password.length < MIN_PASSWORD_LENGTH) {
        throw badInput(`The owner password needs at least ${MIN_PASSWORD_LENGTH} characters.`);
      }
      await repo.setOwnerHash(await hashPassword(password));
      // A new password ends every existing login.
      await repo.clearSessions();
    },

    /** Returns a new session secret, or null when the password is wrong. */
    async login(password: string, _opts: { userAgent?: string | null } = {}): Promise<{ secret: string; expiresAt: Date } | null> {
      const stored = await repo.ownerHash();
      if (!stored || !(await verifyPassword(password, stored))) return null;
      // A hash from before the cost was raised is replaced now that the password is known.
      if (needsRehash(stored)) await repo.setOwnerHash(await hashPassword(password));
      const secret = newSecret("tys");
      const expiresAt = new Date(Date.now() + SESSION_DAYS * 86_400_000);
      await repo.createSession(hashSecret(secret), expiresAt);
      return { secret, expiresAt };
    },

    logout: (secret: string) => repo.deleteSession(hashSecret(secret)),

    /** The owner principal for a valid session secret, or null. */
    async sessionPrincipal(secret: string): Promise<Principal | null> {
      const hash = hashSecret(secret);
      const session = await repo.findSession(hash);
      if (!session || !sameHash(session.tokenHash, hash)) return null;
      if (session.expiresAt.getTime() < Date.now()) {
        await repo.deleteSession(hash);
        return null;
      }
      return { kind: "owner", sessionId: session.id };
    },

    async createToken(name: string): Promise<{ id: string; token: string }> {
      const clean = name.trim();
      if (!clean || clean.length > 100) throw badInput("A token needs a name of 1 to 100 characters.");
      const token = newSecret("tyt");
      const row = await repo.createToken(clean, token.slice(0, 10), hashSecret(token));
      return { id: row.id, token };
    },

    listTokens: async () =>
      (await repo.listTokens()).map((t) => ({
        id: t.id,
        name: t.name,
        prefix: t.prefix,
        createdAt: t.createdAt,
        lastUsedAt: t.lastUsedAt,
        revokedAt: t.revokedAt,
      })),

    async revokeToken(idOrPrefix: string): Promise<boolean> {
      return (await repo.revokeToken(idOrPrefix)).count > 0;
    },

    async tokenPrincipal(token: string): Promise<Principal | null> {
      const hash = hashSecret(token);
      const row = await repo.findToken(hash);
      if (!row || row.revokedAt || !sameHash(row.tokenHash, hash)) return null;
      await repo.touchToken(row.id);
      return { kind: "token", tokenId: row.id, name: row.name, readOnly: false };
    },
  };
}
