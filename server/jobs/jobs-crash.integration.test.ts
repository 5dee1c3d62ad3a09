// Crash recovery with real processes: the controller is killed with SIGKILL while a job
// runs; the job's detached supervisor carries on, and the restarted controller
// reconciles what really happened — without running anything twice.
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { waitFor, type TestServer } from "@/server/testing/server-harness";
import { restartableServer } from "@/server/testing/restartable-server";
import { admitFixtureJob, fixtureInput, pidOf, runCount, waitForState, workerInspect } from "@/server/testing/controller-fixtures";
import { parsePrometheusText } from "@/server/testing/prom-text";

const ctl = restartableServer();

async function passes(s: TestServer): Promise<number> {
  const body = await (await fetch(`${s.url}/metrics`)).text();
  return parsePrometheusText(body).find((x) => x.name === "trainyard_reconcile_passes_total")?.value ?? 0;
}

describe("controller crash", () => {
  it("a job survives kill -9 of the controller and shows succeeded with its logs after restart, run once", async () => {
    const { home, targetId } = ctl;
    const s = await ctl.current();
    const input = fixtureInput(home, "crash", { logLines: ["hello from ctltest"] });
    const admitted = await admitFixtureJob(s, targetId, input);
    await waitForState(s, admitted.id, ["running"]);
    await waitFor("the recipe to write its pid", () => pidOf(input.pidFile));
    await s.kill9();

    writeFileSync(input.releaseFile, "go");
    // While no controller runs, the worker alone finishes the job.
    const receipt = await waitFor("the worker to finish the job", async () => {
      const r = await workerInspect(home, admitted.opId);
      return r.state === "succeeded" ? r : undefined;
    });
    expect(receipt.jobId).toBe(admitted.workerJobId);

    const again = await ctl.start();
    const done = await waitForState(again, admitted.id, ["succeeded", "failed", "unknown"]);
    expect(done.state).toBe("succeeded");
    expect(done.transitions.map((t) => t.to)).toEqual(["queued", ...done.transitions.slice(1).map((t) => t.to)]);
    expect(done.transitions.at(-1)).toMatchObject({ from: "running", to: "succeeded" });
    const log = await again.client.jobs.logs.query({ id: admitted.id });
    expect(log.data).toContain("hello from ctltest");
    expect(log.data).toContain("finished");
    expect(log.eof).toBe(true);
    expect(runCount(input.runLog)).toBe(1);
    expect((await again.client.jobs.list.query({})).filter((j) => j.opId === admitted.opId)).toHaveLength(1);
  });

  it("a job whose receipt is gone becomes unknown at once and is never run again", async () => {
    const { home, targetId } = ctl;
    const s = await ctl.current();
    const input = fixtureInput(home, "gone");
    const admitted = await admitFixtureJob(s, targetId, input);
    const running = await waitForState(s, admitted.id, ["running"]);
    await s.kill9();
    writeFileSync(input.releaseFile, "go");
    await waitFor("the worker to finish the job", async () => (await workerInspect(home, admitted.opId)).state === "succeeded");
    rmSync(path.join(home.workerHome, "receipts", `${running.workerJobId}.json`));

    const again = await ctl.start();
    const unknown = await waitForState(again, admitted.id, ["unknown", "succeeded", "failed"]);
    expect(unknown.state).toBe("unknown");
    expect(unknown.reason).toBe("receipt_missing");
    const before = await passes(again);
    await waitFor("three more reconcile passes", async () => (await passes(again)) >= before + 3);
    const still = await again.client.jobs.get.query({ id: admitted.id });
    expect(still.state).toBe("unknown");
    expect(still.transitions.filter((t) => t.to === "unknown")).toHaveLength(1);
    expect(runCount(input.runLog)).toBe(1);
    await expect(workerInspect(home, admitted.opId)).rejects.toMatchObject({ code: "not_found" });
  });
});
