/**
 * One split path, through the real server, worker and recipes on penguins: the split an
 * experiment's chain made is its SplitContract (Experiment.splitContractId), and asking
 * the datasets service for a split with the same settings answers that contract, with
 * the chain's job, instead of starting a second split.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureHome } from "@/server/config/home";
import { closeDb, openDb, type Db } from "@/server/db/client";
import { runCli } from "@/server/testing/cli-process";
import { makeTestHome, REPO, startTestServer, type TestHome, type TestServer } from "@/server/testing/server-harness";

const PENGUINS = path.join(REPO, "tests/fixtures/tabular/penguins.csv");

describe("the split an experiment trains on", { timeout: 600_000 }, () => {
  let home: TestHome;
  let server: TestServer;
  let db: Db;
  beforeAll(async () => {
    home = makeTestHome();
    server = await startTestServer({ home, env: { TRAINYARD_TRAINING_DIR: path.join(REPO, "training") } });
    db = openDb(ensureHome(home.home).dbFile);
  });
  afterAll(async () => {
    await closeDb();
    await server?.stop();
  });

  it("is pinned on the experiment and is the one split the datasets service answers for those settings", async () => {
    // --out: the export is saved in the test's scratch folder, not the working directory.
    const run = await runCli(server.url, ["train", "--data", PENGUINS, "--target", "species", "--models", "GBM", "--max-minutes", "1", "--out", home.scratch, "--json"]).done;
    expect(run.code, run.stderr).toBe(0);
    const { experimentId } = JSON.parse(run.stdout) as { experimentId: string };
    const exp = await server.client.experiments.get.query({ id: experimentId });
    const splitStep = exp.steps.find((s) => s.step === "split")!;
    expect(splitStep.state).toBe("succeeded");

    const row = (await db.experiment.findUnique({ where: { id: experimentId } }))!;
    expect(row.splitContractId).not.toBeNull();
    const contract = (await db.splitContract.findUnique({ where: { id: row.splitContractId! } }))!;
    const splitJob = (await db.job.findFirst({ where: { experimentId, step: "split" } }))!;
    expect(contract).toMatchObject({ status: "ready", snapshotSha256: row.snapshotSha256, jobId: splitJob.id, outputSha256: splitJob.outputSha256 });
    expect(JSON.parse(contract.contract!)).toMatchObject({ snapshotSha256: row.snapshotSha256, target: "species", strategy: "random" });

    const again = await server.client.datasets.split.mutate({
      datasetId: exp.datasetId,
      target: exp.settings.target,
      task: exp.settings.task,
      strategy: "random",
      seed: exp.settings.seed,
    });
    expect(again).toMatchObject({ id: contract.id, status: "ready", jobId: splitJob.id, splitRef: `sha256:${splitJob.outputSha256}` });
    expect(await db.job.count({ where: { recipe: "data", jobName: "split" } })).toBe(1);
  });
});
