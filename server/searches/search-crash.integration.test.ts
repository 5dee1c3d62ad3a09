/**
 * A search across a kill -9 of the server, a pause, a resume and a stop, on penguins
 * through the real worker (issue 17): the ledger survives the crash (no trial lost or run
 * twice), a pause lets the running trial finish and starts no other, paused time is not
 * spent, and stop cancels the running trial and still scores the best so far once on test.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "@/server/testing/cli-process";
import { makeTestHome, REPO, startTestServer, waitFor, type TestHome, type TestServer } from "@/server/testing/server-harness";

const PENGUINS = path.join(REPO, "tests/fixtures/tabular/penguins.csv");
const REAL_TRAINING = { TRAINYARD_TRAINING_DIR: path.join(REPO, "training") };

describe("a search across a crash, a pause and a stop", { timeout: 600_000 }, () => {
  let home: TestHome;
  let server: TestServer;
  beforeAll(async () => {
    home = makeTestHome();
    server = await startTestServer({ home, env: REAL_TRAINING });
  });
  afterAll(() => server?.stop());

  const theSearch = async () => {
    const projectId = await waitFor("the Default project", async () => (await server.client.projects.list.query({})).find((p) => p.name === "Default")?.id);
    return waitFor("the search", async () => (await server.client.searches.list.query({ projectId }))[0], 120_000, 500);
  };
  const trialIn = (id: string, n: number, states: string[]) =>
    waitFor(
      `trial ${n} ${states.join(" or ")}`,
      async () => {
        const s = await server.client.searches.get.query({ id });
        const t = s.trials.find((x) => x.number === n);
        return t && states.includes(t.status) ? s : undefined;
      },
      300_000,
      500,
    );

  it("keeps its ledger, pauses, resumes and stops", async () => {
    const started = Date.now();
    const run = runCli(server.url, ["train", "--data", PENGUINS, "--target", "species", "--mode", "improve", "--max-trials", "5", "--max-minutes", "8", "--trial-minutes", "1", "--out", home.scratch, "--json"]);
    const { id } = await theSearch();
    await trialIn(id, 1, ["running"]);

    // A crash in trial 1: the restarted server follows the same ledger.
    await server.kill9();
    server = await startTestServer({ home, env: REAL_TRAINING, port: Number(new URL(server.url).port) });
    const during2 = await trialIn(id, 2, ["running"]);

    // Pause while trial 2 runs: it finishes, nothing else starts, and the clock stops.
    const paused = await server.client.searches.pause.mutate({ id, revision: during2.revision });
    expect(paused.status).toBe("paused");
    await expect(server.client.searches.pause.mutate({ id, revision: during2.revision })).rejects.toThrow(/changed since you read it/);
    const after2 = await trialIn(id, 2, ["succeeded"]);
    const usedAtRest = after2.budget.wallUsedSeconds;
    // Three sweeps of the search loop (3 s each) start nothing while paused.
    await new Promise((r) => setTimeout(r, 10_000));
    const still = await server.client.searches.get.query({ id });
    expect(still.status).toBe("paused");
    expect(still.trials.map((t) => t.number)).toEqual([1, 2]);
    expect(still.budget.wallUsedSeconds).toBe(usedAtRest);

    // Resume: trial 3 starts; stop cancels it and scores the best so far once on test.
    const resumed = await server.client.searches.resume.mutate({ id, revision: still.revision });
    expect(resumed.status).toBe("running");
    const during3 = await trialIn(id, 3, ["running"]);
    await server.client.searches.stop.mutate({ id, revision: during3.revision });

    const { code, stdout, stderr } = await run.done;
    expect(code, stderr).toBe(0);
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({ searchId: id, status: "completed", outcome: "candidate" });
    expect([1, 2]).toContain(result.chosenTrial);
    expect(result.test).toBeGreaterThan(0.9);

    const s = await server.client.searches.get.query({ id });
    expect(s.trials.map((t) => [t.number, t.status])).toEqual([
      [1, "succeeded"],
      [2, "succeeded"],
      [3, "cancelled"],
    ]);
    expect(s.reason).toBe("stopped by the user");
    // Paused time was not spent.
    expect(s.budget.wallUsedSeconds).toBeLessThan((Date.now() - started) / 1000 - 9);
    // Across the crash: one planner job and one train job per trial, none twice.
    const jobs = await server.client.jobs.list.query({ limit: 500 });
    const ofSearch = jobs.filter((j) => j.opId.startsWith(`search:${id}:`));
    expect(ofSearch.filter((j) => j.recipe === "search").map((j) => j.opId).sort()).toEqual([1, 2, 3].map((n) => `search:${id}:suggest:${n}`));
    // (Trial 3 may have been stopped before its training began.)
    const trains = ofSearch.filter((j) => j.recipe === "tabular" && j.jobName === "train").map((j) => j.opId).sort();
    expect(trains.slice(0, 2)).toEqual([1, 2].map((n) => `search:${id}:trial:${n}:train`));
    expect(trains.length === 2 || trains[2] === `search:${id}:trial:3:train`).toBe(true);
  });
});
