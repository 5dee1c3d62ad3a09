-- AlterTable
ALTER TABLE "DeploymentKey" ADD COLUMN "expiresAt" DATETIME;
