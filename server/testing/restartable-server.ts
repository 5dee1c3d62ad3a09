// Crash tests kill and restart the server inside one test, against one data home whose
// fixture recipe is made ready once; this holds that home and whichever server is alive,
// and stops it after each test so the next one starts from a known state.
import { afterEach, beforeAll } from "vitest";
import { makeTestHome, startTestServer, type TestHome, type TestServer } from "./server-harness";
import { readyRecipe } from "./controller-fixtures";

export interface RestartableServer {
  readonly home: TestHome;
  readonly targetId: string;
  /** The server alive now, or a fresh one on the same home. */
  current(): Promise<TestServer>;
  /** Starts a server on the same home (e.g. after a kill9) and makes it the current one. */
  start(env?: Record<string, string>): Promise<TestServer>;
  /** Forgets a server that was killed, so afterEach does not stop it again. */
  forget(): void;
}

export function restartableServer(): RestartableServer {
  let home: TestHome | undefined;
  let targetId: string | undefined;
  let server: TestServer | null = null;
  const start = async (env?: Record<string, string>) => {
    server = await startTestServer({ home: ctx.home, env });
    return server;
  };
  const ctx: RestartableServer = {
    get home() {
      if (!home) throw new Error("the test home is made in beforeAll");
      return home;
    },
    get targetId() {
      if (!targetId) throw new Error("the fixture recipe is made ready in beforeAll");
      return targetId;
    },
    current: async () => server ?? (await start()),
    start,
    forget: () => {
      server = null;
    },
  };
  beforeAll(async () => {
    home = makeTestHome();
    targetId = await readyRecipe(await start());
  });
  afterEach(async () => {
    await server?.stop();
    server = null;
  });
  return ctx;
}
