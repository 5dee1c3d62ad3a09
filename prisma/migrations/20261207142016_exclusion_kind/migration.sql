-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_VersionTrainedRows" (
    "versionId" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL DEFAULT 'rows',
    "sha256" TEXT NOT NULL,
    "rows" INTEGER NOT NULL,
    "content" BLOB NOT NULL,
    "holdouts" TEXT NOT NULL,
    CONSTRAINT "VersionTrainedRows_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "ModelVersion" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_VersionTrainedRows" ("content", "holdouts", "rows", "sha256", "versionId") SELECT "content", "holdouts", "rows", "sha256", "versionId" FROM "VersionTrainedRows";
DROP TABLE "VersionTrainedRows";
ALTER TABLE "new_VersionTrainedRows" RENAME TO "VersionTrainedRows";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
