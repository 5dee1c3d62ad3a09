// Tests that train for real (the repository's training/ folder, not the fixture recipes)
// share one server per describe block: started before its tests, stopped after them.
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { standIn } from "@/tests/support/before-all-value";
import { makeTestHome, REPO, startTestServer, type TestHome, type TestServer } from "./server-harness";

export function realRecipesServerForBlock(): { home: TestHome; server: TestServer } {
  let made: { home: TestHome; server: TestServer } | undefined;
  beforeAll(async () => {
    const home = makeTestHome();
    made = { home, server: await startTestServer({ home, env: { TRAINYARD_TRAINING_DIR: path.join(REPO, "training") } }) };
  });
  afterAll(() => made?.server.stop());
  return { home: standIn("the test home", () => made?.home), server: standIn("the test server", () => made?.server) };
}
