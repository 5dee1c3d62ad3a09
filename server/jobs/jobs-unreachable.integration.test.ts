// An unreachable worker: the bundle This computer runs is moved away while jobs exist
// (the worker's detached supervisors keep running). Jobs show "unreachable since", an
// accepted job becomes `unknown` after the (shortened) timeout, a never-seen job waits
// queued, and everything reconciles to the real outcome once the worker answers again.
import { copyFileSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { prepareBuilds, waitFor } from "@/server/testing/server-harness";
import { fixtureServerForFile } from "@/server/testing/fixture-server";
import { admitFixtureJob, fixtureInput, runCount, waitForState } from "@/server/testing/controller-fixtures";
import { parsePrometheusText } from "@/server/testing/prom-text";
import { pidAlive } from "@/worker/testing/harness";

let bundleDir: string;

const awayDir = () => `${bundleDir}.away`;
const moveAway = () => renameSync(bundleDir, awayDir());
const moveBack = () => renameSync(awayDir(), bundleDir);

async function metric(name: string): Promise<number | undefined> {
  const body = await (await fetch(`${fx.server.url}/metrics`)).text();
  return parsePrometheusText(body).find((s) => s.name === name && s.labels.target === "This computer")?.value;
}

const fx = fixtureServerForFile({
  env: async (home) => {
    const entry = await prepareBuilds();
    bundleDir = path.join(home.root, "worker-bundle");
    mkdirSync(bundleDir);
    copyFileSync(entry, path.join(bundleDir, "trainyard-worker.mjs"));
    return { TRAINYARD_WORKER_BUNDLE: path.join(bundleDir, "trainyard-worker.mjs"), TRAINYARD_UNREACHABLE_MINUTES: "0.05" };
  },
});

describe("unreachable worker", () => {
  it("shows unreachable since, becomes unknown after the timeout, then reconciles to the real outcome", async () => {
    const { home, server, targetId } = fx;
    const input = fixtureInput(home, "unreach");
    const admitted = await admitFixtureJob(server, targetId, input);
    await waitForState(server, admitted.id, ["running"]);

    moveAway();
    const marked = await waitFor("unreachableSince on the job", async () => {
      const j = await server.client.jobs.get.query({ id: admitted.id });
      return j.unreachableSince ? j : undefined;
    });
    expect(marked.state).toBe("running");
    const unknown = await waitForState(server, admitted.id, ["unknown"], 30_000);
    expect(unknown.reason).toBe("unreachable");
    expect(unknown.detail).toContain("has not answered since");
    const target = await server.client.targets.get.query({ id: targetId });
    expect(target.unreachableSince).not.toBeNull();
    expect(await metric("trainyard_worker_reachable")).toBe(0);

    writeFileSync(input.releaseFile, "go"); // the job ends while nobody can see it
    // Ended before the worker answers again (on a loaded machine the job notices the file
    // late, and the worker would first be seen running).
    const pid = Number(readFileSync(input.pidFile, "utf8"));
    await waitFor("the job's process to end", () => (pidAlive(pid) ? undefined : true), 30_000);
    const receipt = path.join(home.workerHome, "receipts", `${admitted.workerJobId}.json`);
    await waitFor("its supervisor to record the end", () => (/"state":\s*"succeeded"/.test(readFileSync(receipt, "utf8")) ? true : undefined), 30_000);
    moveBack();
    const done = await waitForState(server, admitted.id, ["succeeded", "failed", "cancelled"]);
    expect(done.state).toBe("succeeded");
    expect(done.unreachableSince).toBeNull();
    expect(done.transitions.map((t) => t.to).slice(-2)).toEqual(["unknown", "succeeded"]);
    expect(runCount(input.runLog)).toBe(1);
    await waitFor("reachability to recover", async () => (await metric("trainyard_worker_reachable")) === 1);
  });

  it("a job the worker never received waits queued and is handed over once it answers", async () => {
    const { home, server, targetId } = fx;
    const input = fixtureInput(home, "never-seen");
    writeFileSync(input.releaseFile, "go");
    // Admission needs a recent probe of the computer; take it while the worker answers.
    await server.client.targets.probe.mutate({ id: targetId });
    moveAway();
    const admitted = await admitFixtureJob(server, targetId, input);
    expect(admitted.state).toBe("queued");
    expect(admitted.workerJobId).toBeNull();
    expect(admitted.unreachableSince).not.toBeNull();
    // Longer than the unknown timeout (3 s): nothing ran, so there is nothing unknown.
    await waitFor("the worker to be unreachable for 4 s", async () => ((await metric("trainyard_worker_unreachable_seconds")) ?? 0) > 4);
    expect((await server.client.jobs.get.query({ id: admitted.id })).state).toBe("queued");
    expect(runCount(input.runLog)).toBe(0);

    moveBack();
    const done = await waitForState(server, admitted.id, ["succeeded", "failed", "unknown"]);
    expect(done.state).toBe("succeeded");
    expect(runCount(input.runLog)).toBe(1);
  });
});
