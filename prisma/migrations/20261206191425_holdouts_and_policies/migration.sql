-- CreateTable
CREATE TABLE "VersionTrainedRows" (
    "versionId" TEXT NOT NULL PRIMARY KEY,
    "sha256" TEXT NOT NULL,
    "rows" INTEGER NOT NULL,
    "content" BLOB NOT NULL,
    "holdouts" TEXT NOT NULL,
    CONSTRAINT "VersionTrainedRows_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "ModelVersion" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PromotionPolicy" (
    "modelId" TEXT NOT NULL PRIMARY KEY,
    "mode" TEXT NOT NULL,
    "deploymentId" TEXT,
    "approvalHours" INTEGER NOT NULL DEFAULT 72,
    "maxPerDay" INTEGER NOT NULL DEFAULT 1,
    "cooldownMinutes" INTEGER NOT NULL DEFAULT 360,
    "watchingSince" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revision" INTEGER NOT NULL DEFAULT 1,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "PromotionCandidate" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "modelId" TEXT NOT NULL,
    "versionId" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "evidence" TEXT NOT NULL,
    "reason" TEXT,
    "decidedBy" TEXT,
    "expiresAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Holdout" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "sha256" TEXT NOT NULL,
    "bytes" BIGINT NOT NULL,
    "fileName" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "rows" INTEGER NOT NULL,
    "columns" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Experiment" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "opId" TEXT NOT NULL,
    "intentHash" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "phase" TEXT NOT NULL DEFAULT 'preparing_data',
    "reason" TEXT,
    "progressNote" TEXT,
    "targetId" TEXT NOT NULL,
    "targetRevision" INTEGER NOT NULL,
    "workerId" TEXT,
    "kind" TEXT NOT NULL DEFAULT 'tabular',
    "datasetId" TEXT NOT NULL,
    "evalDatasetId" TEXT,
    "resumedFromId" TEXT,
    "snapshotSha256" TEXT NOT NULL,
    "settings" TEXT NOT NULL,
    "splitContractId" TEXT,
    "holdouts" TEXT NOT NULL DEFAULT '[]',
    "budgetSeconds" INTEGER NOT NULL,
    "cancelRequestedAt" DATETIME,
    "results" TEXT,
    "exportSha256" TEXT,
    "exportBytes" BIGINT,
    "revision" INTEGER NOT NULL DEFAULT 1,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "startedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "endedAt" DATETIME
);
INSERT INTO "new_Experiment" ("budgetSeconds", "cancelRequestedAt", "createdAt", "datasetId", "endedAt", "evalDatasetId", "exportBytes", "exportSha256", "id", "intentHash", "kind", "name", "opId", "phase", "progressNote", "projectId", "reason", "results", "resumedFromId", "revision", "settings", "snapshotSha256", "splitContractId", "startedAt", "status", "targetId", "targetRevision", "updatedAt", "workerId") SELECT "budgetSeconds", "cancelRequestedAt", "createdAt", "datasetId", "endedAt", "evalDatasetId", "exportBytes", "exportSha256", "id", "intentHash", "kind", "name", "opId", "phase", "progressNote", "projectId", "reason", "results", "resumedFromId", "revision", "settings", "snapshotSha256", "splitContractId", "startedAt", "status", "targetId", "targetRevision", "updatedAt", "workerId" FROM "Experiment";
DROP TABLE "Experiment";
ALTER TABLE "new_Experiment" RENAME TO "Experiment";
CREATE UNIQUE INDEX "Experiment_opId_key" ON "Experiment"("opId");
CREATE INDEX "Experiment_projectId_idx" ON "Experiment"("projectId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "PromotionCandidate_state_idx" ON "PromotionCandidate"("state");

-- CreateIndex
CREATE UNIQUE INDEX "PromotionCandidate_modelId_versionId_key" ON "PromotionCandidate"("modelId", "versionId");

-- CreateIndex
CREATE INDEX "Holdout_projectId_idx" ON "Holdout"("projectId");

-- CreateIndex
CREATE UNIQUE INDEX "Holdout_projectId_sha256_key" ON "Holdout"("projectId", "sha256");
