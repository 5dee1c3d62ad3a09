-- CreateTable
CREATE TABLE "Schedule" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "opId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "reason" TEXT,
    "stateData" TEXT,
    "revision" INTEGER NOT NULL DEFAULT 1,
    "source" TEXT NOT NULL,
    "spec" TEXT NOT NULL,
    "clock" TEXT NOT NULL,
    "maxRuns" INTEGER,
    "maxComputeMinutes" REAL,
    "minNewRows" INTEGER NOT NULL DEFAULT 0,
    "nextSlotAt" DATETIME NOT NULL,
    "pendingLatest" BOOLEAN NOT NULL DEFAULT false,
    "createdBy" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "ScheduleRun" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "scheduleId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "trigger" TEXT NOT NULL,
    "tickKey" TEXT NOT NULL,
    "slotAt" DATETIME NOT NULL,
    "outcome" TEXT NOT NULL,
    "reason" TEXT,
    "step" TEXT,
    "observed" TEXT,
    "runKey" TEXT,
    "dataSha256" TEXT,
    "datasetId" TEXT,
    "rows" INTEGER,
    "specHash" TEXT,
    "budgetMinutes" REAL,
    "experimentId" TEXT,
    "searchId" TEXT,
    "result" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ScheduleRun_scheduleId_fkey" FOREIGN KEY ("scheduleId") REFERENCES "Schedule" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "NotificationChannel" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "secret" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Notification" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "projectId" TEXT,
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "link" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "NotificationDelivery" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "notificationId" TEXT NOT NULL,
    "channelId" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastError" TEXT,
    "lastStatus" INTEGER,
    "deliveredAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "NotificationDelivery_notificationId_fkey" FOREIGN KEY ("notificationId") REFERENCES "Notification" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "Schedule_opId_key" ON "Schedule"("opId");

-- CreateIndex
CREATE INDEX "Schedule_projectId_idx" ON "Schedule"("projectId");

-- CreateIndex
CREATE UNIQUE INDEX "ScheduleRun_runKey_key" ON "ScheduleRun"("runKey");

-- CreateIndex
CREATE UNIQUE INDEX "ScheduleRun_scheduleId_seq_key" ON "ScheduleRun"("scheduleId", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "ScheduleRun_scheduleId_tickKey_key" ON "ScheduleRun"("scheduleId", "tickKey");

-- CreateIndex
CREATE INDEX "NotificationDelivery_state_nextAttemptAt_idx" ON "NotificationDelivery"("state", "nextAttemptAt");

-- CreateIndex
CREATE UNIQUE INDEX "NotificationDelivery_notificationId_channelId_key" ON "NotificationDelivery"("notificationId", "channelId");
