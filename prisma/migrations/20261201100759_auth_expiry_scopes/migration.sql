-- AlterTable
ALTER TABLE "LoginSession" ADD COLUMN "userAgent" TEXT;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_ApiToken" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" DATETIME,
    "revokedAt" DATETIME,
    "expiresAt" DATETIME,
    "readOnly" BOOLEAN NOT NULL DEFAULT false
);
INSERT INTO "new_ApiToken" ("createdAt", "id", "lastUsedAt", "name", "prefix", "revokedAt", "tokenHash") SELECT "createdAt", "id", "lastUsedAt", "name", "prefix", "revokedAt", "tokenHash" FROM "ApiToken";
DROP TABLE "ApiToken";
ALTER TABLE "new_ApiToken" RENAME TO "ApiToken";
CREATE UNIQUE INDEX "ApiToken_tokenHash_key" ON "ApiToken"("tokenHash");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
