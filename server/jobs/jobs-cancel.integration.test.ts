// Cancellation is an intent stored first and delivered by the reconcile loop until the
// worker confirms; the job is `cancelled` only once its process group is gone.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { makeTestHome, startTestServer, waitFor, type TestHome, type TestServer } from "@/server/testing/server-harness";
import { admitFixtureJob, fixtureInput, isProcessAlive, pidOf, readyRecipe, runCount, waitForState, workerInspect } from "@/server/testing/controller-fixtures";

let home: TestHome;
let server: TestServer | null = null;
let targetId: string;

async function start(env?: Record<string, string>) {
  server = await startTestServer({ home, env });
  return server;
}

beforeAll(async () => {
  home = makeTestHome();
  targetId = await readyRecipe(await start());
});
afterEach(async () => {
  await server?.stop();
  server = null;
});

describe("cancel", () => {
  it("a running job becomes cancelled only after its process is gone", async () => {
    const s = server ?? (await start());
    const input = fixtureInput(home, "cancel");
    const admitted = await admitFixtureJob(s, targetId, input);
    await waitForState(s, admitted.id, ["running"]);
    const pid = await waitFor("the recipe pid", () => pidOf(input.pidFile));
    expect(isProcessAlive(pid)).toBe(true);

    const requested = await s.client.jobs.cancel.mutate({ id: admitted.id });
    expect(requested.cancelRequestedAt).not.toBeNull();
    expect(requested.state).not.toBe("cancelled");

    const done = await waitForState(s, admitted.id, ["cancelled", "succeeded", "failed"]);
    expect(done.state).toBe("cancelled");
    expect(done.reason).toBe("cancel_requested");
    expect(isProcessAlive(pid)).toBe(false);
    expect((await workerInspect(home, admitted.opId)).state).toBe("cancelled");
    expect(runCount(input.runLog)).toBe(1);
  });

  it("cancel intent survives a controller crash before it was delivered", async () => {
    // One pass at start, then none for ten minutes: the intent cannot be delivered.
    const s = await start({ TRAINYARD_RECONCILE_MS: "600000" });
    const input = fixtureInput(home, "cancel-restart");
    const admitted = await admitFixtureJob(s, targetId, input);
    await waitFor("the worker to run the job", async () => (await workerInspect(home, admitted.opId)).state === "running");
    const pid = await waitFor("the recipe pid", () => pidOf(input.pidFile));

    const requested = await s.client.jobs.cancel.mutate({ id: admitted.id });
    expect(requested.cancelRequestedAt).not.toBeNull();
    await s.kill9();
    server = null;
    expect((await workerInspect(home, admitted.opId)).cancelRequestedAt).toBeNull();
    expect(isProcessAlive(pid)).toBe(true);

    const again = await start();
    const done = await waitForState(again, admitted.id, ["cancelled", "succeeded", "failed"]);
    expect(done.state).toBe("cancelled");
    expect(done.cancelRequestedAt).toBe(requested.cancelRequestedAt);
    expect(isProcessAlive(pid)).toBe(false);
    expect(runCount(input.runLog)).toBe(1);
  });
});
