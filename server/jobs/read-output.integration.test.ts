/**
 * readOutput against the real worker bundle on This computer: a JSON output comes back
 * parsed with its contract schema, one of another shape is an OutputInvalid (a domain
 * error with the zod issues), an absent optional file is null, and bytes changed after
 * the job's manifest recorded them are refused. The outputs are written by the worker
 * fixture's `echo` job, which copies its input into input.json.
 */
import { writeFileSync, chmodSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZReceipt, ZSplitContract, type SplitContract } from "@/contracts/recipes";
import type { TReceipt } from "@/contracts/worker";
import { loadConfig } from "@/server/config/env";
import { ensureHome } from "@/server/config/home";
import { clearControllerRuntime, setControllerRuntime, type ControllerRuntime } from "@/server/config/runtime";
import type { Db } from "@/server/db/client";
import { isDomainError } from "@/server/errors";
import { ensureLocalTarget } from "@/server/targets/local/local-target";
import type { Target } from "@/server/targets/target";
import { targetFor } from "@/server/targets/target-for";
import { WorkerRefused } from "@/server/targets/transport";
import { buildWorkerBundle, makeTestHome, REPO, TEST_ENVS_DIR, waitFor } from "@/server/testing/server-harness";
import { openTestDb } from "@/server/testing/test-db";
import { locateOutput, OutputInvalid, readOptionalOutput, readOutput, readOutputBytes, type OutputJob } from "./read-output";

const WORKER_FIXTURES = `${REPO}/worker/test-fixtures/training`;
const hex = (c: string) => c.repeat(64);
const SPLIT: SplitContract = {
  version: 1,
  snapshotSha256: hex("a"),
  strategy: "random",
  seed: 3,
  target: "species",
  task: "multiclass",
  groupColumn: null,
  timeColumn: null,
  cutoff: null,
  fractions: { train: 0.7, validation: 0.15, test: 0.15 },
  dedup: "exact_duplicates_first_kept",
  partitionFile: "partition.csv",
  partitionSha256: hex("b"),
  counts: { train: 7, validation: 2, test: 1, excluded: 0 },
  rows: 10,
  excludedReasons: { duplicate: 0, missingTarget: 0, missingTime: 0 },
};

let db: Db;
let closeDb: () => Promise<void>;
let target: Target;
let environmentId: string;
let n = 0;

/** Runs the fixture's echo job with `input`; the job as readOutput takes it. */
async function echo(input: Record<string, unknown>): Promise<OutputJob> {
  const opId = `read-output-${process.pid}-${++n}`;
  const started = await target.exec("submit", { opId, intentHash: opId, recipe: "wk", job: "echo", environmentId, input, resources: { cpus: 1, ramGb: 0.1 }, deadlineSeconds: 60 });
  const jobId = started.receipt.jobId;
  const done = await waitFor(`echo job ${jobId}`, async () => {
    const r: TReceipt = (await target.exec("inspect", { jobId })).receipt;
    return ["succeeded", "failed", "cancelled", "timed_out"].includes(r.state) ? r : undefined;
  });
  expect(done.state).toBe("succeeded");
  return { id: `job-${n}`, targetId: target.row.id, workerJobId: jobId };
}

beforeAll(async () => {
  const bundle = await buildWorkerBundle();
  const home = makeTestHome();
  ({ db, close: closeDb } = await openTestDb());
  const config = loadConfig({ TRAINYARD_HOME: home.home, TRAINYARD_ENVS_DIR: TEST_ENVS_DIR, TRAINYARD_TRAINING_DIR: WORKER_FIXTURES, TRAINYARD_WORKER_BUNDLE: bundle });
  const rt: ControllerRuntime = { config, home: ensureHome(home.home), repoRoot: REPO };
  setControllerRuntime(rt);
  target = targetFor(await ensureLocalTarget(rt, db), db);
  const prep = await target.exec("prepare", { opId: `read-output-prep-${process.pid}`, recipe: "wk" });
  environmentId = prep.environmentId;
  if (!prep.ready) {
    await waitFor("the wk environment", async () => {
      const r: TReceipt = (await target.exec("inspect", { jobId: prep.jobId! })).receipt;
      return r.state === "succeeded" ? r : undefined;
    }, 120_000);
  }
});
afterAll(async () => {
  clearControllerRuntime();
  await closeDb?.();
});

describe("readOutput", () => {
  it("returns a JSON output parsed with its contract schema", async () => {
    const job = await echo(SPLIT);
    expect(await readOutput(db, job, "input.json", ZSplitContract)).toEqual(SPLIT);
  });

  it("refuses an output of another shape with OutputInvalid, a domain error carrying the zod issues", async () => {
    const job = await echo(SPLIT);
    const err = await readOutput(db, job, "input.json", ZReceipt).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutputInvalid);
    expect(isDomainError(err)).toBe(true);
    const invalid = err as OutputInvalid;
    expect(invalid.code).toBe("UNAVAILABLE");
    expect(invalid.details).toMatchObject({ reason: "output_invalid", jobId: job.id, file: "input.json" });
    expect(invalid.issues.length).toBeGreaterThan(0);
    expect(invalid.message).toMatch(/^input\.json of job job-\d+ does not match its contract \(/);
  });

  it("gives null for an optional file the job did not write, and the worker's not_found for a required one", async () => {
    const job = await echo(SPLIT);
    expect(await readOptionalOutput(db, job, "feature_importance.json", ZReceipt)).toBeNull();
    const err = await readOutput(db, job, "feature_importance.json", ZReceipt).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkerRefused);
    expect((err as WorkerRefused).code).toBe("not_found");
  });

  it("refuses bytes that no longer match the job's manifest", async () => {
    const job = await echo(SPLIT);
    const located = await locateOutput(db, job, "input.json");
    chmodSync(located.path, 0o600);
    writeFileSync(located.path, JSON.stringify({ ...SPLIT, rows: 11 }));
    await expect(readOutputBytes(db, job, "input.json")).rejects.toThrow(/does not match its manifest|changed/);
  });
});
