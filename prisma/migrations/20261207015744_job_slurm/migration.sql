-- AlterTable
ALTER TABLE "Job" ADD COLUMN "slurm" TEXT;
