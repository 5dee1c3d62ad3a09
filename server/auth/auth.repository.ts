/** Prisma access for owner credentials, login sessions and API tokens. */
import { getDb, type Db } from "@/server/db/client";

export function authRepository(db: Db = getDb()) {
  return {
    /** A deployment key by its hash: auth checks keys for every door, below deployments. */
    deploymentKeyByHash: (keyHash: string) => db.deploymentKey.findUnique({ where: { keyHash } }),
    ownerHash: async () => (await db.ownerCredential.findUnique({ where: { id: 1 } }))?.passwordHash ?? null,
    setOwnerHash: (passwordHash: string) =>
      db.ownerCredential.upsert({ where: { id: 1 }, create: { id: 1, passwordHash }, update: { passwordHash } }),

    clearSessions: () => db.loginSession.deleteMany({}),
    createSession: (tokenHash: string, expiresAt: Date, userAgent: string | null) =>
      db.loginSession.create({ data: { tokenHash, expiresAt, userAgent } }),
    findSession: (tokenHash: string) => db.loginSession.findUnique({ where: { tokenHash } }),
    listSessions: () => db.loginSession.findMany({ orderBy: { createdAt: "asc" } }),
    deleteSession: (tokenHash: string) => db.loginSession.deleteMany({ where: { tokenHash } }),
    deleteSessionById: (id: string) => db.loginSession.deleteMany({ where: { id } }),
    deleteSessionsExcept: (keepId: string | null) =>
      db.loginSession.deleteMany({ where: keepId ? { id: { not: keepId } } : {} }),
    /** Sessions past their absolute expiry, or last seen before `idleCutoff`. */
    deleteEndedSessions: (now: Date, idleCutoff: Date) =>
      db.loginSession.deleteMany({ where: { OR: [{ expiresAt: { lte: now } }, { lastSeenAt: { lte: idleCutoff } }] } }),
    touchSession: (id: string, at: Date) => db.loginSession.updateMany({ where: { id }, data: { lastSeenAt: at } }),

    createToken: (data: { name: string; prefix: string; tokenHash: string; expiresAt: Date | null; scope: string; parentId: string | null }) =>
      db.apiToken.create({ data }),
    findToken: (tokenHash: string) => db.apiToken.findUnique({ where: { tokenHash } }),
    findTokenById: (id: string) => db.apiToken.findUnique({ where: { id } }),
    listTokens: () => db.apiToken.findMany({ orderBy: { createdAt: "asc" } }),
    revokeToken: (idOrPrefix: string) =>
      db.apiToken.updateMany({
        where: { OR: [{ id: idOrPrefix }, { prefix: idOrPrefix }], revokedAt: null },
        data: { revokedAt: new Date() },
      }),
    revokeTokenById: (id: string) =>
      db.apiToken.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } }),
    touchToken: (id: string) => db.apiToken.update({ where: { id }, data: { lastUsedAt: new Date() } }),
  };
}

export type AuthRepository = ReturnType<typeof authRepository>;
