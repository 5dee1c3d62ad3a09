/**
 * For CLI commands that work on the data home directly (owner password, tokens,
 * backup): opens the home's database after applying pending migrations. Safe while a
 * server runs: SQLite in WAL mode allows this second writer for short transactions.
 */
import { loadConfig } from "@/server/config/env";
import { ensureHome, type HomePaths } from "@/server/config/home";
import { closeDb, openDb, type Db } from "@/server/db/client";
import { prepareDatabase, repoMigrationPaths } from "@/server/db/prepare-database";
import { REPO_ROOT } from "./repo-root";

export async function withLocalDb<T>(run: (db: Db, home: HomePaths) => Promise<T>): Promise<T> {
  const home = ensureHome(loadConfig().home);
  await prepareDatabase(home.dbFile, repoMigrationPaths(REPO_ROOT));
  const db = openDb(home.dbFile);
  try {
    return await run(db, home);
  } finally {
    await closeDb();
  }
}
