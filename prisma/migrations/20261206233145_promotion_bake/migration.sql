-- AlterTable
ALTER TABLE "PromotionCandidate" ADD COLUMN "stateData" TEXT;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_PromotionPolicy" (
    "modelId" TEXT NOT NULL PRIMARY KEY,
    "mode" TEXT NOT NULL,
    "deploymentId" TEXT,
    "approvalHours" INTEGER NOT NULL DEFAULT 72,
    "maxPerDay" INTEGER NOT NULL DEFAULT 1,
    "cooldownMinutes" INTEGER NOT NULL DEFAULT 360,
    "bakeRequests" INTEGER NOT NULL DEFAULT 20,
    "bakeMinutes" INTEGER NOT NULL DEFAULT 15,
    "bakeDeadlineHours" INTEGER NOT NULL DEFAULT 24,
    "bakeLowTraffic" TEXT NOT NULL DEFAULT 'keep',
    "maxExportMib" REAL,
    "watchingSince" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revision" INTEGER NOT NULL DEFAULT 1,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_PromotionPolicy" ("approvalHours", "cooldownMinutes", "createdAt", "deploymentId", "maxPerDay", "mode", "modelId", "revision", "updatedAt", "watchingSince") SELECT "approvalHours", "cooldownMinutes", "createdAt", "deploymentId", "maxPerDay", "mode", "modelId", "revision", "updatedAt", "watchingSince" FROM "PromotionPolicy";
DROP TABLE "PromotionPolicy";
ALTER TABLE "new_PromotionPolicy" RENAME TO "PromotionPolicy";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
