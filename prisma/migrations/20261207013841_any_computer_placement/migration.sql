-- AlterTable
ALTER TABLE "Experiment" ADD COLUMN "placement" TEXT;

-- AlterTable
ALTER TABLE "Search" ADD COLUMN "placement" TEXT;
