-- CreateTable
CREATE TABLE "DeploymentStatsBucket" (
    "releaseId" TEXT NOT NULL,
    "start" DATETIME NOT NULL,
    "deploymentId" TEXT NOT NULL,
    "requests" INTEGER NOT NULL DEFAULT 0,
    "errors" TEXT NOT NULL DEFAULT '{}',
    "latencyMs" TEXT NOT NULL DEFAULT '{}',

    PRIMARY KEY ("releaseId", "start")
);

-- CreateIndex
CREATE INDEX "DeploymentStatsBucket_start_idx" ON "DeploymentStatsBucket"("start");
