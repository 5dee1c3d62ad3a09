/** Prisma access for owner credentials, login sessions and API tokens. */
import { getDb, type Db } from "@/server/db/client";

export function authRepository(db: Db = getDb()) {
  return {
    ownerHash: async () => (await db.ownerCredential.findUnique({ where: { id: 1 } }))?.passwordHash ?? null,
    setOwnerHash: (passwordHash: string) =>
      db.ownerCredential.upsert({ where: { id: 1 }, create: { id: 1, passwordHash }, update: { passwordHash } }),
    clearSessions: () => db.loginSession.deleteMany({}),
    createSession: (tokenHash: string, expiresAt: Date) =>
      db.loginSession.create({ data: { tokenHash, expiresAt } }),
    findSession: (tokenHash: string) => db.loginSession.findUnique({ where: { tokenHash } }),
    deleteSession: (tokenHash: string) => db.loginSession.deleteMany({ where: { tokenHash } }),
    touchSession: (id: string) => db.loginSession.update({ where: { id }, data: { lastSeenAt: new Date() } }),
    createToken: (name: string, prefix: string, tokenHash: string) =>
      db.apiToken.create({ data: { name, prefix, tokenHash } }),
    findToken: (tokenHash: string) => db.apiToken.findUnique({ where: { tokenHash } }),
    listTokens: () => db.apiToken.findMany({ orderBy: { createdAt: "asc" } }),
    revokeToken: (idOrPrefix: string) =>
      db.apiToken.updateMany({
        where: { OR: [{ id: idOrPrefix }, { prefix: idOrPrefix }], revokedAt: null },
        data: { revokedAt: new Date() },
      }),
    touchToken: (id: string) => db.apiToken.update({ where: { id }, data: { lastUsedAt: new Date() } }),
  };
}
