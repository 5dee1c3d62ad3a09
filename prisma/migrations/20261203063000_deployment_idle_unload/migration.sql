-- AlterTable
ALTER TABLE "Deployment" ADD COLUMN "idleUnloadMinutes" REAL;
