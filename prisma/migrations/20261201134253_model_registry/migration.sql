-- CreateTable
CREATE TABLE "RegisteredModel" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "nameKey" TEXT NOT NULL,
    "revision" INTEGER NOT NULL DEFAULT 1,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "ModelVersion" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "modelId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "experimentId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "exportSha256" TEXT NOT NULL,
    "exportBytes" BIGINT NOT NULL,
    "exportFileName" TEXT NOT NULL,
    "modelSha256" TEXT NOT NULL,
    "receipt" TEXT NOT NULL,
    "baselineReceipt" TEXT NOT NULL,
    "evaluationContractHash" TEXT NOT NULL,
    "snapshotSha256" TEXT NOT NULL,
    "splitContractId" TEXT,
    "settings" TEXT NOT NULL,
    "identity" TEXT NOT NULL,
    "targetId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "ModelAlias" (
    "modelId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "versionId" TEXT NOT NULL,
    "updatedAt" DATETIME NOT NULL,

    PRIMARY KEY ("modelId", "name")
);

-- CreateTable
CREATE TABLE "AliasEvent" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "modelId" TEXT NOT NULL,
    "alias" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "fromVersionId" TEXT,
    "toVersionId" TEXT NOT NULL,
    "revision" INTEGER NOT NULL,
    "actor" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "evidence" TEXT NOT NULL,
    "acknowledgedRegression" BOOLEAN NOT NULL DEFAULT false,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE UNIQUE INDEX "RegisteredModel_projectId_nameKey_key" ON "RegisteredModel"("projectId", "nameKey");

-- CreateIndex
CREATE INDEX "ModelVersion_exportSha256_idx" ON "ModelVersion"("exportSha256");

-- CreateIndex
CREATE UNIQUE INDEX "ModelVersion_modelId_number_key" ON "ModelVersion"("modelId", "number");

-- CreateIndex
CREATE UNIQUE INDEX "ModelVersion_modelId_experimentId_key" ON "ModelVersion"("modelId", "experimentId");

-- CreateIndex
CREATE INDEX "AliasEvent_modelId_id_idx" ON "AliasEvent"("modelId", "id");
