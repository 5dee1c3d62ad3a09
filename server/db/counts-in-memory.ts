/**
 * The in-memory side of counts written in batches (a deployment's request counts, a
 * monitor's windows): one state per database client, kept on globalThis because route
 * handlers and the server's own code are separate module copies in one process, and
 * flushed before that client closes so a clean stop loses nothing.
 */
import { beforeDbClose, type Db } from "./client";

export function countsInMemory<S>(name: string, make: () => S, flush: (db: Db) => Promise<void>): (db: Db) => S {
  const key = Symbol.for(`trainyard.${name}`);
  return (db) => {
    const g = globalThis as { [k: symbol]: WeakMap<Db, S> | undefined };
    const all = (g[key] ??= new WeakMap());
    let s = all.get(db);
    if (!s) {
      s = make();
      all.set(db, s);
      beforeDbClose((closing) => (closing === db ? flush(db) : Promise.resolve()));
    }
    return s;
  };
}
