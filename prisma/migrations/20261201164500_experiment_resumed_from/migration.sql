-- AlterTable
ALTER TABLE "Experiment" ADD COLUMN "resumedFromId" TEXT;
