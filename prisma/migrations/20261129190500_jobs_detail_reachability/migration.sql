-- AlterTable
ALTER TABLE "Job" ADD COLUMN "detail" TEXT;

-- AlterTable
ALTER TABLE "Target" ADD COLUMN "lastError" TEXT;
ALTER TABLE "Target" ADD COLUMN "unreachableSince" DATETIME;
