-- CreateTable
CREATE TABLE "Deployment" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "nameKey" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "targetId" TEXT NOT NULL,
    "modelId" TEXT NOT NULL,
    "followsAlias" TEXT,
    "state" TEXT NOT NULL,
    "reason" TEXT,
    "revision" INTEGER NOT NULL DEFAULT 1,
    "currentReleaseId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "DeploymentRelease" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "deploymentId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "versionId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "why" TEXT NOT NULL,
    "actor" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "DeploymentKey" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "deploymentId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "keyHash" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revokedAt" DATETIME
);

-- CreateTable
CREATE TABLE "DeploymentStats" (
    "releaseId" TEXT NOT NULL PRIMARY KEY,
    "deploymentId" TEXT NOT NULL,
    "requests" INTEGER NOT NULL DEFAULT 0,
    "errors" TEXT NOT NULL DEFAULT '{}',
    "latencyMs" TEXT NOT NULL DEFAULT '{}',
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "Deployment_projectId_nameKey_key" ON "Deployment"("projectId", "nameKey");

-- CreateIndex
CREATE UNIQUE INDEX "DeploymentRelease_deploymentId_number_key" ON "DeploymentRelease"("deploymentId", "number");

-- CreateIndex
CREATE UNIQUE INDEX "DeploymentKey_keyHash_key" ON "DeploymentKey"("keyHash");

-- CreateIndex
CREATE INDEX "DeploymentKey_deploymentId_idx" ON "DeploymentKey"("deploymentId");

-- CreateIndex
CREATE INDEX "DeploymentStats_deploymentId_idx" ON "DeploymentStats"("deploymentId");
