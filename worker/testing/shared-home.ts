// Most worker integration files run every test against one worker home with the fixture
// environment built; this makes it once per file and removes it afterwards. Kept apart
// from harness.ts so that the harness stays usable outside vitest.
import { afterAll, beforeAll } from "vitest";
import { fixtureEnv, makeHome, type WorkerHome } from "./harness";

/** A worker home made in beforeAll; its fields may be read only inside tests. */
export function workerHomeForFile(config: Record<string, unknown>): WorkerHome {
  let made: WorkerHome | undefined;
  const w = () => {
    if (!made) throw new Error("the worker home is made in beforeAll");
    return made;
  };
  beforeAll(async () => {
    await fixtureEnv();
    made = await makeHome(config);
  }, 180_000);
  afterAll(() => made?.cleanup());
  return {
    get home() {
      return w().home;
    },
    get entry() {
      return w().entry;
    },
    control: (req) => w().control(req),
    controlRaw: (stdin) => w().controlRaw(stdin),
    cleanup: () => w().cleanup(),
  };
}
