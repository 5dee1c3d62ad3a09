/**
 * Creating and applying migrations (the `prisma migrate dev|deploy` equivalents),
 * through the wasm schema engine. Applying is incremental: a database made by an
 * older release is upgraded in place, never recreated.
 */
import { existsSync, readdirSync } from "node:fs";
import Database from "better-sqlite3";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { openSchemaEngine, type SchemaEngine } from "./schema-engine";

export interface MigrationPaths {
  schemaFile: string;
  migrationsDir: string;
}

const LOCKFILE = "migration_lock.toml";

async function loadMigrationsList(dir: string) {
  const entries = existsSync(dir) ? await readdir(dir, { withFileTypes: true }) : [];
  const dirs = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  const migrationDirectories = await Promise.all(
    dirs.map(async (name) => {
      const file = path.join(dir, name, "migration.sql");
      const content = existsSync(file)
        ? { tag: "ok" as const, value: await readFile(file, "utf8") }
        : { tag: "error" as const, value: `missing ${file}` };
      return { path: name, migrationFile: { path: "migration.sql", content } };
    }),
  );
  const lockPath = path.join(dir, LOCKFILE);
  return {
    baseDir: dir,
    lockfile: {
      path: LOCKFILE,
      content: existsSync(lockPath) ? await readFile(lockPath, "utf8") : null,
    },
    shadowDbInitScript: "",
    migrationDirectories,
  };
}

async function withEngine<T>(
  dbFile: string,
  paths: MigrationPaths,
  run: (engine: SchemaEngine) => Promise<T>,
): Promise<T> {
  const content = await readFile(paths.schemaFile, "utf8");
  const engine = await openSchemaEngine(dbFile, { path: paths.schemaFile, content });
  try {
    return await run(engine);
  } finally {
    await engine.close();
  }
}

/**
 * Names of migrations in the folder that the database has not applied, read with a
 * plain query. The engine locks the database even when there is nothing to do, which
 * would make a CLI command wait on a running server; this check avoids starting it.
 */
export function pendingMigrationNames(dbFile: string, migrationsDir: string): string[] {
  const wanted = existsSync(migrationsDir)
    ? readdirSync(migrationsDir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort()
    : [];
  if (!existsSync(dbFile)) return wanted;
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    const table = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'").get();
    if (!table) return wanted;
    const rows = db
      .prepare("SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL")
      .all() as { migration_name: string }[];
    const done = new Set(rows.map((r) => r.migration_name));
    return wanted.filter((name) => !done.has(name));
  } finally {
    db.close();
  }
}

/** Applies every pending migration; returns the names applied (empty when up to date). */
export async function applyPendingMigrations(
  dbFile: string,
  paths: MigrationPaths,
): Promise<string[]> {
  if (pendingMigrationNames(dbFile, paths.migrationsDir).length === 0) return [];
  const migrationsList = await loadMigrationsList(paths.migrationsDir);
  return withEngine(dbFile, paths, async (engine) => {
    const out = await engine.applyMigrations({
      migrationsList,
      filters: { externalTables: [], externalEnums: [] },
    });
    return out.appliedMigrationNames;
  });
}

/**
 * Creates a migration from the difference between the migrations folder and the
 * schema (like `prisma migrate dev --name`), writes it, and applies it to `dbFile`.
 * Returns the new folder name, or null when the schema has no change.
 */
export async function createMigration(
  dbFile: string,
  paths: MigrationPaths,
  name: string,
): Promise<string | null> {
  const migrationsList = await loadMigrationsList(paths.migrationsDir);
  const content = await readFile(paths.schemaFile, "utf8");
  const filters = { externalTables: [], externalEnums: [] };
  // One engine for the three steps: devDiagnostic sets up the (in-memory) shadow
  // database that createMigration diffs against.
  const created = await withEngine(dbFile, paths, async (engine) => {
    await engine.applyMigrations({ migrationsList, filters });
    const diagnostic = await engine.devDiagnostic({ migrationsList, filters });
    if (diagnostic.action.tag === "reset") {
      throw new Error(`The scratch database needs a reset: ${diagnostic.action.reason}`);
    }
    return engine.createMigration({
      draft: false,
      migrationName: name,
      migrationsList,
      schema: { files: [{ path: paths.schemaFile, content }] },
      filters,
    });
  });
  if (!created.migrationScript) return null;
  const dir = path.join(paths.migrationsDir, created.generatedMigrationName);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, `migration.${created.extension}`), created.migrationScript);
  const lockPath = path.join(paths.migrationsDir, LOCKFILE);
  if (!existsSync(lockPath)) {
    await writeFile(
      lockPath,
      `# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "${created.connectorType}"\n`,
    );
  }
  await applyPendingMigrations(dbFile, paths);
  return created.generatedMigrationName;
}
