// Admission through the real server: idempotency by opId under concurrency, conflicts,
// and the /metrics exposition.
import { writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePrometheusText } from "@/server/testing/prom-text";
import { makeTestHome, startTestServer, type TestHome, type TestServer } from "@/server/testing/server-harness";
import { admitFixtureJob, fixtureInput, readyRecipe, runCount, waitForState } from "@/server/testing/controller-fixtures";

let home: TestHome;
let server: TestServer;
let targetId: string;

beforeAll(async () => {
  home = makeTestHome();
  server = await startTestServer({ home });
  targetId = await readyRecipe(server);
});
afterAll(async () => {
  await server?.stop();
});

describe("admission", () => {
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
