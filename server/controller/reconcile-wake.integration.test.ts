/**
 * The reconcile loop hears of This computer's job transitions from the worker's receipts
 * (a watch), not only at its poll: with a one-minute poll, a job that ends is recorded as
 * ended within seconds, which is what lets an experiment's chain start its next step.
 */
import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { waitFor } from "@/server/testing/server-harness";
import { fixtureServerForFile } from "@/server/testing/fixture-server";
import { admitFixtureJob, fixtureInput } from "@/server/testing/controller-fixtures";

const fx = fixtureServerForFile({ env: () => ({ TRAINYARD_RECONCILE_MS: "60000" }), timeoutMs: 300_000 });

describe("the reconcile loop on This computer", () => {
  it("records a job's start and end within seconds, though it polls once a minute", async () => {
    const { home, server, targetId } = fx;
    const input = fixtureInput(home, "quick");
    const job = await admitFixtureJob(server, targetId, input);
    const state = async () => (await server.client.jobs.get.query({ id: job.id })).state;
    await waitFor("the job to be recorded running", async () => (await state()) === "running", 15_000, 100);
    writeFileSync(input.releaseFile, "go");
    const released = Date.now();
    const ended = await waitFor("the job to be recorded succeeded", async () => {
      const j = await server.client.jobs.get.query({ id: job.id });
      return j.state === "succeeded" ? j : undefined;
    }, 15_000, 100);
    expect(Date.now() - released).toBeLessThan(15_000);
    expect(Date.parse(ended.endedAt!)).toBeGreaterThanOrEqual(released - 1000);
  });
});
