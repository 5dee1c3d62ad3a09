/**
 * Login sessions: a random secret in the browser's cookie, its SHA-256 in the database.
 * A session ends by idle or absolute expiry (session-expiry.ts), by signing out, by being
 * signed out from Settings, or when the owner password changes.
 */
import { notFound } from "@/server/errors";
import type { AuthRepository } from "./auth.repository";
import type { Principal } from "./principal";
import { idleExpiresAt, judgeSession, SESSION_IDLE_MS, SESSION_MAX_MS } from "./session-expiry";
import { hashSecret, newSecret, sameHash } from "./secret-token";

export interface SessionView {
  id: string;
  createdAt: Date;
  lastSeenAt: Date;
  /** The earlier of the idle and the absolute expiry. */
  endsAt: Date;
  userAgent: string | null;
  current: boolean;
}

export function sessionService(repo: AuthRepository) {
  return {
    /** Starts a session; also forgets sessions that have ended, so the table stays small. */
    async startSession(userAgent: string | null): Promise<{ secret: string; expiresAt: Date }> {
      const now = new Date();
      await repo.deleteEndedSessions(now, new Date(now.getTime() - SESSION_IDLE_MS));
      const secret = newSecret("tys");
      const expiresAt = new Date(now.getTime() + SESSION_MAX_MS);
      await repo.createSession(hashSecret(secret), expiresAt, userAgent?.slice(0, 200) || null);
      return { secret, expiresAt };
    },

    logout: (secret: string) => repo.deleteSession(hashSecret(secret)),

    /** The owner principal for a live session secret, or null (an ended session is deleted). */
    async sessionPrincipal(secret: string): Promise<Principal | null> {
      const hash = hashSecret(secret);
      const session = await repo.findSession(hash);
      if (!session || !sameHash(session.tokenHash, hash)) return null;
      const now = new Date();
      const verdict = judgeSession(session, now);
      if (!verdict.live) {
        await repo.deleteSession(hash);
        return null;
      }
      if (verdict.touch) await repo.touchSession(session.id, now);
      return { kind: "owner", sessionId: session.id };
    },

    async listSessions(currentSessionId: string | null): Promise<SessionView[]> {
      const now = new Date();
      return (await repo.listSessions())
        .filter((s) => judgeSession(s, now).live)
        .map((s) => {
          const idleEnd = idleExpiresAt(s.lastSeenAt);
          return {
            id: s.id,
            createdAt: s.createdAt,
            lastSeenAt: s.lastSeenAt,
            endsAt: idleEnd < s.expiresAt ? idleEnd : s.expiresAt,
            userAgent: s.userAgent,
            current: s.id === currentSessionId,
          };
        });
    },

    async revokeSession(id: string): Promise<void> {
      if ((await repo.deleteSessionById(id)).count === 0) throw notFound(`No session ${id}; it may have ended already.`);
    },

    /** Ends every session but `exceptId` (null: every one); returns how many ended. */
    async endAllSessions(exceptId: string | null): Promise<number> {
      return (await repo.deleteSessionsExcept(exceptId)).count;
    },
  };
}
