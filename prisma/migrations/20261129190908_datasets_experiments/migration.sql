-- AlterTable
ALTER TABLE "Job" ADD COLUMN "experimentId" TEXT;
ALTER TABLE "Job" ADD COLUMN "step" TEXT;

-- CreateTable
CREATE TABLE "Setting" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "value" TEXT NOT NULL,
    "revision" INTEGER NOT NULL DEFAULT 1,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Snapshot" (
    "sha256" TEXT NOT NULL PRIMARY KEY,
    "bytes" BIGINT NOT NULL,
    "format" TEXT,
    "rowCount" INTEGER,
    "columns" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "SnapshotCopy" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "snapshotSha256" TEXT NOT NULL,
    "workerId" TEXT NOT NULL,
    "targetId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "SnapshotCopy_snapshotSha256_fkey" FOREIGN KEY ("snapshotSha256") REFERENCES "Snapshot" ("sha256") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Dataset" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "snapshotSha256" TEXT NOT NULL,
    "sourceKind" TEXT NOT NULL,
    "sourceName" TEXT NOT NULL,
    "encoding" TEXT NOT NULL DEFAULT 'utf-8',
    "status" TEXT NOT NULL DEFAULT 'profiling',
    "error" TEXT,
    "profile" TEXT,
    "profileJobId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Dataset_snapshotSha256_fkey" FOREIGN KEY ("snapshotSha256") REFERENCES "Snapshot" ("sha256") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "SplitContract" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "snapshotSha256" TEXT NOT NULL,
    "settingsHash" TEXT NOT NULL,
    "settings" TEXT NOT NULL,
    "outputSha256" TEXT,
    "contract" TEXT,
    "jobId" TEXT,
    "status" TEXT NOT NULL DEFAULT 'running',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "Experiment" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "opId" TEXT NOT NULL,
    "intentHash" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "phase" TEXT NOT NULL DEFAULT 'preparing_data',
    "reason" TEXT,
    "targetId" TEXT NOT NULL,
    "targetRevision" INTEGER NOT NULL,
    "workerId" TEXT,
    "datasetId" TEXT NOT NULL,
    "snapshotSha256" TEXT NOT NULL,
    "settings" TEXT NOT NULL,
    "splitContractId" TEXT,
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

-- CreateTable
CREATE TABLE "WizardDraft" (
    "projectId" TEXT NOT NULL PRIMARY KEY,
    "data" TEXT NOT NULL,
    "revision" INTEGER NOT NULL DEFAULT 1,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "SnapshotCopy_snapshotSha256_workerId_key" ON "SnapshotCopy"("snapshotSha256", "workerId");

-- CreateIndex
CREATE INDEX "Dataset_projectId_idx" ON "Dataset"("projectId");

-- CreateIndex
CREATE UNIQUE INDEX "Dataset_projectId_snapshotSha256_key" ON "Dataset"("projectId", "snapshotSha256");

-- CreateIndex
CREATE UNIQUE INDEX "SplitContract_snapshotSha256_settingsHash_key" ON "SplitContract"("snapshotSha256", "settingsHash");

-- CreateIndex
CREATE UNIQUE INDEX "Experiment_opId_key" ON "Experiment"("opId");

-- CreateIndex
CREATE INDEX "Experiment_projectId_idx" ON "Experiment"("projectId");

-- CreateIndex
CREATE INDEX "Job_experimentId_idx" ON "Job"("experimentId");
