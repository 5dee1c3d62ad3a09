// A describe block or file that shares one expensive thing (a server) makes it in
// beforeAll and disposes of it in afterAll; these stand for it from the start, so the
// block can name it with a const instead of a `let` that every block assigns the same way.
import { afterAll, beforeAll } from "vitest";

/**
 * Stands for the object `get` returns once it is made; reading it earlier throws. Methods
 * are not bound: they run with the stand-in as `this`, which forwards every read, and a
 * bound copy of a function-shaped object (a tRPC client) would lose its properties.
 */
export function standIn<T extends object>(what: string, get: () => T | undefined): T {
  return new Proxy({} as T, {
    get(_, key) {
      const made = get();
      if (!made) throw new Error(`${what} is made in beforeAll`);
      return Reflect.get(made, key);
    },
  });
}

/** Registers the hooks in the calling block and returns a stand-in for what `make` makes. */
export function beforeAllValue<T extends object>(what: string, make: () => Promise<T>, dispose: (value: T) => unknown): T {
  let made: T | undefined;
  beforeAll(async () => {
    made = await make();
  });
  afterAll(async () => {
    if (made) await dispose(made);
  });
  return standIn(what, () => made);
}
