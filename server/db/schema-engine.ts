/**
 * Prisma's schema engine as wasm, bound to the better-sqlite3 driver adapter.
 *
 * Why: the Prisma CLI downloads a native schema engine before migrating, and that
 * download is unreachable behind many firewalls. The wasm build ships in an npm
 * package, so migrations work offline. Node 20 cannot `import` a .wasm file, so the
 * module is instantiated by hand. Limits: SQLite only; one engine per call.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";

type SqlDriverAdapter = Awaited<ReturnType<PrismaBetterSqlite3["connect"]>>;

/**
 * The engine replays migrations on the shadow database with `executeRaw` and a whole
 * migration file, but better-sqlite3 prepares one statement at a time. Such a call is
 * sent to `executeScript`, which runs several.
 */
function withMultiStatementRaw(adapter: SqlDriverAdapter): SqlDriverAdapter {
  const executeRaw: SqlDriverAdapter["executeRaw"] = async (query) => {
    try {
      return await adapter.executeRaw(query);
    } catch (err) {
      if (query.args.length === 0 && /more than one statement/i.test(String((err as Error)?.message ?? err))) {
        await adapter.executeScript(query.sql);
        return 0;
      }
      throw err;
    }
  };
  return new Proxy(adapter, {
    get: (target, key) => {
      if (key === "executeRaw") return executeRaw;
      const value = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

type Bg = typeof import("@prisma/schema-engine-wasm/schema_engine_bg");
type WasmEngine = Awaited<ReturnType<Bg["SchemaEngine"]["new"]>>;
/** The engine plus `close()`, which frees it and closes its SQLite connections. */
export type SchemaEngine = WasmEngine & { close(): Promise<void> };

let bgModule: Promise<Bg> | undefined;

async function loadBg(): Promise<Bg> {
  bgModule ??= (async () => {
    const require = createRequire(import.meta.url);
    // The package exports no ./package.json; resolve its bg module instead.
    const pkgDir = path.dirname(require.resolve("@prisma/schema-engine-wasm/schema_engine_bg"));
    const bg = (await import(
      path.join(pkgDir, "schema_engine_bg.js")
    )) as Bg;
    const bytes = await readFile(path.join(pkgDir, "schema_engine_bg.wasm"));
    const { instance } = await WebAssembly.instantiate(bytes, {
      "./schema_engine_bg.js": bg as unknown as WebAssembly.ModuleImports,
    });
    bg.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return bg;
  })();
  return bgModule;
}

/** Opens an engine on the SQLite file `dbFile`, with an in-memory shadow database. */
export async function openSchemaEngine(
  dbFile: string,
  schema: { path: string; content: string },
  onLog: (line: string) => void = () => {},
): Promise<SchemaEngine> {
  const bg = await loadBg();
  const factory = new PrismaBetterSqlite3(
    { url: dbFile, timeout: 10_000 },
    { shadowDatabaseUrl: ":memory:" },
  );
  // engine.free() leaves the driver's connections open, and a second engine in the same
  // process would then see SQLITE_BUSY; keep them so close() can dispose of them.
  const connections: { dispose(): Promise<void> }[] = [];
  const keep = (c: SqlDriverAdapter) => {
    connections.push(c);
    return withMultiStatementRaw(c);
  };
  const tracked: Parameters<typeof bindMigrationAwareSqlAdapterFactory>[0] = {
    provider: factory.provider as typeof factory.provider,
    adapterName: factory.adapterName,
    connect: async () => keep(await factory.connect()),
    connectToShadowDb: async () => keep(await factory.connectToShadowDb()),
  };
  const engine = await bg.SchemaEngine.new(
    { datamodels: [[schema.path, schema.content]] },
    (log: unknown) => onLog(String(log)),
    bindMigrationAwareSqlAdapterFactory(tracked),
  );
  return Object.assign(engine, {
    async close() {
      engine.free();
      for (const c of connections.splice(0)) await c.dispose();
    },
  });
}
