-- AlterTable
ALTER TABLE "ModelVersion" ADD COLUMN "serving" TEXT;
