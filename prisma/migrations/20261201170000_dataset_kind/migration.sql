-- AlterTable
ALTER TABLE "Dataset" ADD COLUMN "kind" TEXT NOT NULL DEFAULT 'table';
