/**
 * `npm run db:migrate -- NAME` creates a migration from prisma/schema.prisma (applied to a
 * scratch database under .tmp/), `npm run db:deploy` applies pending migrations to the
 * database in TRAINYARD_HOME. The server applies pending migrations at every start.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { applyPendingMigrations, createMigration } from "../server/db/migrations";
import { loadConfig } from "../server/config/env";
import { homePaths } from "../server/config/home";

const repo = path.resolve(import.meta.dirname, "..");
const paths = {
  schemaFile: path.join(repo, "prisma/schema.prisma"),
  migrationsDir: path.join(repo, "prisma/migrations"),
};

async function main(): Promise<void> {
  const [mode, name] = process.argv.slice(2);
  if (mode === "dev") {
    mkdirSync(path.join(repo, ".tmp"), { recursive: true });
    const scratch = path.join(repo, ".tmp/dev-migrate.db");
    const created = await createMigration(scratch, paths, name ?? "change");
    console.log(created ? `created prisma/migrations/${created}` : "schema unchanged: no migration");
  } else if (mode === "deploy") {
    const home = homePaths(loadConfig().home);
    const applied = await applyPendingMigrations(home.dbFile, paths);
    console.log(applied.length ? `applied: ${applied.join(", ")}` : "database is up to date");
  } else {
    console.error("usage: db-migrate.ts dev NAME | deploy");
    process.exit(2);
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
