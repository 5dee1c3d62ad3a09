-- AlterTable
ALTER TABLE "Deployment" ADD COLUMN "memoryGb" REAL;
