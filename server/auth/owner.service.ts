/**
 * The owner: password, login sessions (sessions.ts) and API tokens (api-tokens.ts).
 * Sessions and tokens are random secrets of which only a hash is stored.
 */
import { badInput } from "@/server/errors";
import type { Db } from "@/server/db/client";
import { apiTokenService } from "./api-tokens";
import { authRepository } from "./auth.repository";
import { hashPassword, MIN_PASSWORD_LENGTH, needsRehash, verifyPassword } from "./password";
import type { Principal } from "./principal";
import { sessionService } from "./sessions";

export { SESSION_COOKIE } from "./session-cookie";
export type { Principal } from "./principal";

export function ownerService(db?: Db) {
  const repo = authRepository(db);
  const sessions = sessionService(repo);
  const tokens = apiTokenService(repo);
  return {
    ...sessions,
    ...tokens,

    hasPassword: async () => (await repo.ownerHash()) !== null,

    async setPassword(password: string): Promise<void> {
      if (password.length < MIN_PASSWORD_LENGTH) {
        throw badInput(`The owner password needs at least ${MIN_PASSWORD_LENGTH} characters.`);
      }
      await repo.setOwnerHash(await hashPassword(password));
      // A new password ends every existing login.
      await repo.clearSessions();
    },

    /**
     * Checks the password and starts a session; null when it is wrong. Callers bound how
     * many run at once (sign-in.ts): each check takes 128 MiB.
     */
    async login(password: string, opts: { userAgent?: string | null } = {}): Promise<{ secret: string; expiresAt: Date } | null> {
      const stored = await repo.ownerHash();
      if (!stored || !(await verifyPassword(password, stored))) return null;
      // A hash from before the cost was raised is replaced now that the password is known.
      if (needsRehash(stored)) await repo.setOwnerHash(await hashPassword(password));
      return sessions.startSession(opts.userAgent ?? null);
    },

    /** The principal for a usable token, or null (unknown, revoked or expired: checkToken says which). */
    async tokenPrincipal(token: string): Promise<Principal | null> {
      const check = await tokens.checkToken(token);
      return check.ok ? check.principal : null;
    },
  };
}
