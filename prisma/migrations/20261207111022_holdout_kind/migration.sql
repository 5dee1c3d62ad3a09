-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Holdout" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "bytes" BIGINT NOT NULL,
    "fileName" TEXT NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'table',
    "format" TEXT NOT NULL,
    "rows" INTEGER NOT NULL,
    "columns" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
INSERT INTO "new_Holdout" ("bytes", "columns", "createdAt", "fileName", "format", "id", "name", "projectId", "rows", "sha256") SELECT "bytes", "columns", "createdAt", "fileName", "format", "id", "name", "projectId", "rows", "sha256" FROM "Holdout";
DROP TABLE "Holdout";
ALTER TABLE "new_Holdout" RENAME TO "Holdout";
CREATE INDEX "Holdout_projectId_idx" ON "Holdout"("projectId");
CREATE UNIQUE INDEX "Holdout_projectId_sha256_key" ON "Holdout"("projectId", "sha256");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
