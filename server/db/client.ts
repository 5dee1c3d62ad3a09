/**
 * One Prisma client per process. The instance lives on globalThis because Next.js
 * bundles route handlers and the proxy separately from the code our server entry
 * loads: a module-level singleton would exist twice in one process.
 */
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "@/generated/prisma/client";

export type Db = PrismaClient;

const KEY = Symbol.for("trainyard.db");
type Holder = { [KEY]?: { file: string; client: Db } };

/** Opens the client for `dbFile` once; later calls return the same client. */
export function openDb(dbFile: string): Db {
  const holder = globalThis as Holder;
  const existing = holder[KEY];
  if (existing) {
    if (existing.file !== dbFile) {
      throw new Error(`database already open at ${existing.file}, refusing to open ${dbFile}`);
    }
    return existing.client;
  }
  const adapter = new PrismaBetterSqlite3({ url: dbFile, timeout: 10_000 });
  const client = new PrismaClient({ adapter });
  holder[KEY] = { file: dbFile, client };
  return client;
}

/** The process's client; the server opens it at start, before any request. */
export function getDb(): Db {
  const existing = (globalThis as Holder)[KEY];
  if (!existing) throw new Error("database is not open: the server opens it at start");
  return existing.client;
}

const BEFORE_CLOSE = Symbol.for("trainyard.db.beforeClose");
type Hooks = { [BEFORE_CLOSE]?: Set<(db: Db) => Promise<void>> };

/** Work that must reach the database before it closes (writes a domain batches in memory). */
export function beforeDbClose(fn: (db: Db) => Promise<void>): void {
  const g = globalThis as Hooks;
  (g[BEFORE_CLOSE] ??= new Set()).add(fn);
}

export async function closeDb(): Promise<void> {
  const holder = globalThis as Holder;
  const existing = holder[KEY];
  if (existing) for (const fn of (globalThis as Hooks)[BEFORE_CLOSE] ?? []) await fn(existing.client);
  delete holder[KEY];
  await existing?.client.$disconnect();
}
