// Admission through the real server: idempotency by opId under concurrency, conflicts,
// and the /metrics exposition.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePrometheusText } from "@/server/testing/prom-text";
import { makeTestHome, startTestServer, waitFor, type TestHome, type TestServer } from "@/server/testing/server-harness";
import { admitFixtureJob, fixtureInput, localTargetId, RECIPE, runCount, waitForState } from "@/server/testing/controller-fixtures";

let home: TestHome;
let server: TestServer;
let targetId: string;

beforeAll(async () => {
  home = makeTestHome();
  // A private environments folder: the first test must really build the environment.
  server = await startTestServer({ home, env: { TRAINYARD_ENVS_DIR: path.join(home.root, "envs") } });
  targetId = await localTargetId(server);
});
afterAll(async () => {
  await server?.stop();
});

describe("admission", () => {
  it("needs the recipe's environment, which the first use builds as a tracked job with a log", async () => {
    await expect(admitFixtureJob(server, targetId, fixtureInput(home, "early"))).rejects.toMatchObject({
      data: { code: "CONFLICT", details: { needsEnvironment: true } },
    });
    // Asked twice at once (asked one after the other, a fast build may be over before the second ask).
    const [started, again] = await Promise.all([0, 1].map(() => server.client.targets.prepareRecipe.mutate({ targetId, recipe: RECIPE })));
    expect(started!.ready).toBe(false);
    expect(started!.job?.jobName).toBe("prepare");
    expect(again!.job?.id).toBe(started!.job!.id); // one build per environment, however often asked
    const done = await waitForState(server, started!.job!.id, ["succeeded", "failed", "cancelled", "timed_out"], 120_000);
    expect(done.state).toBe("succeeded");
    expect(done.environmentId).toBe(started!.environmentId);
    const log = await server.client.jobs.logs.query({ id: done.id });
    expect(log.data).toContain(started!.environmentId);
    // The controller re-probes the computer once the build succeeded.
    await waitFor("the stored probe to show the environment", async () => {
      const t = await server.client.targets.get.query({ id: targetId });
      return t.probe?.recipes.find((r) => r.name === RECIPE)?.environmentReady === true;
    });
  });

  it("50 concurrent admissions with one opId make one job that runs once", async () => {
    const input = fixtureInput(home, "dup");
    writeFileSync(input.releaseFile, "go");
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => admitFixtureJob(server, targetId, input, "op-dup-0001")));
    const ok = results.filter((r) => r.status === "fulfilled").map((r) => (r as PromiseFulfilledResult<{ id: string }>).value.id);
    expect(ok).toHaveLength(50);
    expect(new Set(ok).size).toBe(1);
    const jobs = await server.client.jobs.list.query({});
    expect(jobs.filter((j) => j.opId === "op-dup-0001")).toHaveLength(1);
    const done = await waitForState(server, ok[0]!, ["succeeded", "failed"]);
    expect(done.state).toBe("succeeded");
    expect(runCount(input.runLog)).toBe(1);
    expect(done.transitions[0]).toMatchObject({ from: "none", to: "queued" });
    expect(done.transitions.at(-1)).toMatchObject({ to: "succeeded" });
    expect(done.recipeVersion).toBe("0.3.0");
    expect(done.environmentId).toMatch(/^[0-9a-f]{64}$/);
    expect(done.workerId).toBeTruthy();
  });

  it("the same opId with a different intent is refused with CONFLICT", async () => {
    const input = fixtureInput(home, "conflict");
    writeFileSync(input.releaseFile, "go");
    await admitFixtureJob(server, targetId, input, "op-conflict-1");
    await expect(admitFixtureJob(server, targetId, { ...input, maxSeconds: 5 }, "op-conflict-1")).rejects.toMatchObject({
      data: { code: "CONFLICT" },
    });
  });

  it("an unknown recipe is refused before anything is written", async () => {
    await expect(
      server.client.jobs.admit.mutate({ opId: "op-norecipe-1", targetId, recipe: "nope", job: "run", deadlineSeconds: 10 }),
    ).rejects.toMatchObject({ data: { code: "NOT_FOUND" } });
    expect((await server.client.jobs.list.query({})).some((j) => j.opId === "op-norecipe-1")).toBe(false);
  });
});

describe("/metrics", () => {
  it("is Prometheus text with jobs by state, reconcile lag and reachability, and no paths or secrets", async () => {
    const res = await fetch(`${server.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    const body = await res.text();
    const samples = parsePrometheusText(body);
    const succeeded = samples.find((s) => s.name === "trainyard_jobs" && s.labels.state === "succeeded" && s.labels.target === "This computer");
    expect(succeeded?.value).toBeGreaterThanOrEqual(1);
    const lag = samples.find((s) => s.name === "trainyard_reconcile_lag_seconds");
    expect(lag?.value).toBeGreaterThanOrEqual(0);
    expect(lag?.value).toBeLessThan(30);
    expect(samples.find((s) => s.name === "trainyard_worker_reachable")?.value).toBe(1);
    expect(body).not.toContain(home.root);
    expect(body).not.toMatch(/\/(tmp|home|root|work|usr)\//);
    expect(body).not.toMatch(/python|node |--home|token|password|secret/i);
  });
});
