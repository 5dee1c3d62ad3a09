// Controller tests that keep one server for the whole file, with the fixture recipe made
// ready: one data home, one server started in beforeAll (after any setup of the home the
// server's settings depend on), stopped in afterAll.
import { afterAll, beforeAll } from "vitest";
import { makeTestHome, startTestServer, type TestHome, type TestServer } from "./server-harness";
import { readyRecipe } from "./controller-fixtures";

export interface FixtureServer {
  readonly home: TestHome;
  readonly server: TestServer;
  readonly targetId: string;
}

export interface FixtureServerOptions {
  /** Prepares the home before the server starts and returns the server's extra settings. */
  env: (home: TestHome) => Promise<Record<string, string>> | Record<string, string>;
  timeoutMs?: number;
}

export function fixtureServerForFile(opts: FixtureServerOptions): FixtureServer {
  let made: FixtureServer | undefined;
  const get = () => {
    if (!made) throw new Error("the fixture server is started in beforeAll");
    return made;
  };
  beforeAll(async () => {
    const home = makeTestHome();
    const server = await startTestServer({ home, env: await opts.env(home) });
    made = { home, server, targetId: await readyRecipe(server) };
  }, opts.timeoutMs);
  afterAll(async () => {
    await made?.server.stop();
  });
  return {
    get home() {
      return get().home;
    },
    get server() {
      return get().server;
    },
    get targetId() {
      return get().targetId;
    },
  };
}
