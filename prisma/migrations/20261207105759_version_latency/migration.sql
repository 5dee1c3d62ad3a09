-- AlterTable
ALTER TABLE "ModelVersion" ADD COLUMN "latency" TEXT;

-- AlterTable
ALTER TABLE "PromotionPolicy" ADD COLUMN "maxLatencyMs" REAL;
