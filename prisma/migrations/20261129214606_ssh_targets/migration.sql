-- AlterTable
ALTER TABLE "Project" ADD COLUMN "defaultTargetId" TEXT;

-- AlterTable
ALTER TABLE "Target" ADD COLUMN "deletedAt" DATETIME;
ALTER TABLE "Target" ADD COLUMN "hostKeyProblem" TEXT;

-- CreateTable
CREATE TABLE "AcceptedHostKey" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "hostName" TEXT NOT NULL,
    "keyType" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "acceptedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE UNIQUE INDEX "AcceptedHostKey_hostName_keyType_key" ON "AcceptedHostKey"("hostName", "keyType");
