-- CreateTable
CREATE TABLE "Search" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "opId" TEXT NOT NULL,
    "intentHash" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "reason" TEXT,
    "targetId" TEXT NOT NULL,
    "datasetId" TEXT NOT NULL,
    "snapshotSha256" TEXT NOT NULL,
    "spec" TEXT NOT NULL,
    "wallUsedSeconds" REAL NOT NULL DEFAULT 0,
    "runningSince" DATETIME,
    "finalExperimentId" TEXT,
    "outcome" TEXT,
    "revision" INTEGER NOT NULL DEFAULT 1,
    "createdBy" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    "endedAt" DATETIME
);

-- CreateTable
CREATE TABLE "SearchTrial" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "searchId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "opId" TEXT,
    "status" TEXT NOT NULL,
    "proposer" TEXT NOT NULL,
    "hypothesis" TEXT,
    "params" TEXT NOT NULL,
    "rejection" TEXT,
    "reservedSeconds" REAL NOT NULL DEFAULT 0,
    "usedSeconds" REAL,
    "experimentId" TEXT,
    "validationValue" REAL,
    "reason" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "reservedAt" DATETIME,
    "endedAt" DATETIME
);

-- CreateIndex
CREATE UNIQUE INDEX "Search_opId_key" ON "Search"("opId");

-- CreateIndex
CREATE INDEX "Search_projectId_idx" ON "Search"("projectId");

-- CreateIndex
CREATE UNIQUE INDEX "SearchTrial_opId_key" ON "SearchTrial"("opId");

-- CreateIndex
CREATE INDEX "SearchTrial_searchId_idx" ON "SearchTrial"("searchId");

-- CreateIndex
CREATE UNIQUE INDEX "SearchTrial_searchId_number_key" ON "SearchTrial"("searchId", "number");
