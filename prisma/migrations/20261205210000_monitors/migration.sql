-- CreateTable
CREATE TABLE "Monitor" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "deploymentId" TEXT NOT NULL,
    "releaseId" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "reason" TEXT,
    "stateData" TEXT,
    "windowRequests" INTEGER NOT NULL,
    "windowMinutes" REAL,
    "minRows" INTEGER NOT NULL,
    "alertAfter" INTEGER NOT NULL,
    "alertCooldownMinutes" REAL NOT NULL DEFAULT 60,
    "reference" TEXT,
    "referenceWindow" INTEGER,
    "policy" TEXT,
    "policyState" TEXT,
    "policyReason" TEXT,
    "policyStateData" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "MonitorAlert" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "monitorId" TEXT NOT NULL,
    "windowSeq" INTEGER NOT NULL,
    "columns" TEXT NOT NULL,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "MonitorWindow" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "monitorId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "openedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closedAt" DATETIME,
    "requests" INTEGER NOT NULL DEFAULT 0,
    "rows" INTEGER NOT NULL DEFAULT 0,
    "errors" TEXT NOT NULL DEFAULT '{}',
    "latencyMs" TEXT NOT NULL DEFAULT '{}',
    "histograms" TEXT NOT NULL DEFAULT '{}',
    "errorStreak" INTEGER NOT NULL DEFAULT 0,
    "verdict" TEXT
);

-- CreateIndex
CREATE UNIQUE INDEX "Monitor_deploymentId_releaseId_key" ON "Monitor"("deploymentId", "releaseId");

-- CreateIndex
CREATE INDEX "Monitor_projectId_idx" ON "Monitor"("projectId");

-- CreateIndex
CREATE INDEX "MonitorAlert_monitorId_idx" ON "MonitorAlert"("monitorId");

-- CreateIndex
CREATE UNIQUE INDEX "MonitorWindow_monitorId_seq_key" ON "MonitorWindow"("monitorId", "seq");
