-- AlterTable
ALTER TABLE "Experiment" ADD COLUMN "kind" TEXT NOT NULL DEFAULT 'tabular';
ALTER TABLE "Experiment" ADD COLUMN "evalDatasetId" TEXT;
