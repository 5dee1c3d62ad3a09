// Cancellation is an intent stored first and delivered by the reconcile loop until the
// worker confirms; the job is `cancelled` only once its process group is gone.
import { describe, expect, it } from "vitest";
import { waitFor } from "@/server/testing/server-harness";
import { restartableServer } from "@/server/testing/restartable-server";
import { admitFixtureJob, fixtureInput, isProcessAlive, pidOf, runCount, waitForState, workerInspect } from "@/server/testing/controller-fixtures";

const ctl = restartableServer();

describe("cancel", () => {
  it("a running job becomes cancelled only after its process is gone", async () => {
    const { home, targetId } = ctl;
    const s = await ctl.current();
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
    const { home, targetId } = ctl;
    const s = await ctl.start({ TRAINYARD_RECONCILE_MS: "600000" });
    const input = fixtureInput(home, "cancel-restart");
    const admitted = await admitFixtureJob(s, targetId, input);
    await waitFor("the worker to run the job", async () => (await workerInspect(home, admitted.opId)).state === "running");
    const pid = await waitFor("the recipe pid", () => pidOf(input.pidFile));

    const requested = await s.client.jobs.cancel.mutate({ id: admitted.id });
    expect(requested.cancelRequestedAt).not.toBeNull();
    await s.kill9();
    ctl.forget();
    expect((await workerInspect(home, admitted.opId)).cancelRequestedAt).toBeNull();
    expect(isProcessAlive(pid)).toBe(true);

    const again = await ctl.start();
    const done = await waitForState(again, admitted.id, ["cancelled", "succeeded", "failed"]);
    expect(done.state).toBe("cancelled");
    expect(done.cancelRequestedAt).toBe(requested.cancelRequestedAt);
    expect(isProcessAlive(pid)).toBe(false);
    expect(runCount(input.runLog)).toBe(1);
  });
});
