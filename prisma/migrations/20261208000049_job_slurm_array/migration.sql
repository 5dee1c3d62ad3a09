-- AlterTable
ALTER TABLE "Job" ADD COLUMN "slurmArray" TEXT;
