-- AlterTable
ALTER TABLE "Experiment" ADD COLUMN "progressNote" TEXT;

-- CreateTable
CREATE TABLE "LifecycleEvent" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "lifecycle" TEXT NOT NULL,
    "entityId" TEXT NOT NULL,
    "from" TEXT NOT NULL,
    "to" TEXT NOT NULL,
    "reason" TEXT,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "LifecycleEvent_lifecycle_entityId_idx" ON "LifecycleEvent"("lifecycle", "entityId");

-- A running experiment's `reason` was its progress note; it moves to its own column.
UPDATE "Experiment" SET "progressNote" = "reason", "reason" = NULL WHERE "status" = 'running';
