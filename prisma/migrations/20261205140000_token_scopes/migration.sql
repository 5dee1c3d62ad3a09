-- A token's reach is a scope (read-only | agent | full | admin) instead of a read-only flag.
ALTER TABLE "ApiToken" ADD COLUMN "scope" TEXT NOT NULL DEFAULT 'full';
ALTER TABLE "ApiToken" ADD COLUMN "parentId" TEXT;
UPDATE "ApiToken" SET "scope" = 'read-only' WHERE "readOnly" = 1;
ALTER TABLE "ApiToken" DROP COLUMN "readOnly";
