-- AlterTable
ALTER TABLE "SplitContract" ADD COLUMN "error" TEXT;

-- CreateTable
CREATE TABLE "DatasetCheck" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "datasetId" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "positiveClassKey" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "jobId" TEXT,
    "result" TEXT,
    "error" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "DatasetCheck_datasetId_target_positiveClassKey_key" ON "DatasetCheck"("datasetId", "target", "positiveClassKey");
