-- States carry typed data beside their words: a move's event keeps it, a deployment its current state's.
ALTER TABLE "LifecycleEvent" ADD COLUMN "data" TEXT;
ALTER TABLE "Deployment" ADD COLUMN "stateData" TEXT;
