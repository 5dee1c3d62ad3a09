/**
 * Fine-tuning that outlives its interruptions, through the real server, worker and recipe on
 * the tiny GPT-2: a cancel during training saves a checkpoint and Resume continues at the
 * saved step (the step count and the loss curve go on, they do not restart), once per
 * stopped experiment; a server killed
 * mid-training comes back and the same experiment finishes, nothing started twice; the
 * three experiments on one base import it once.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTestHome, REPO, startTestServer, type TestHome, type TestServer } from "@/server/testing/server-harness";
import path from "node:path";
import { allowedModelFolder, hasEnded, SMALL, uploadExamples, waitForFineTune } from "./finetune-test-support";
import type { FineTuneView } from "./finetune.schema";

const opId = () => `test-${randomUUID()}`;
const REAL_TRAINING = { TRAINYARD_TRAINING_DIR: path.join(REPO, "training") };

describe("fine-tuning across a cancel and a server restart", { timeout: 600_000 }, () => {
  let home: TestHome;
  let server: TestServer;
  let projectId: string;
  let datasetId: string;
  let model: string;
  beforeAll(async () => {
    home = makeTestHome();
    server = await startTestServer({ home, env: REAL_TRAINING });
    ({ model } = await allowedModelFolder(server, home));
    projectId = (await server.client.projects.create.mutate({ name: `Resume ${Date.now()}` })).id;
    datasetId = await uploadExamples(server, projectId);
  });
  afterAll(() => server?.stop());

  it("resumes a cancelled training at its saved step and its loss curve continues", async () => {
    // Enough steps that the cancel lands mid-training; the resumed attempt then stops a few steps later.
    const settings = { base: { kind: "path" as const, path: model }, ...SMALL, maxSteps: 400, maxMinutes: 120 };
    const first = await server.client.finetune.start.mutate({ opId: opId(), projectId, datasetId, settings });
    const training = await waitForFineTune(server, first.experiment.id, "training to pass step 3", (v) => (v.training?.step ?? 0) >= 3 || hasEnded(v));
    expect(training.experiment.status, training.experiment.reason ?? "").toBe("running");
    expect(training.step).toMatchObject({ name: "train" });
    expect(training.training!.tokensPerSecond).toBeGreaterThan(0);
    // experiments.cancel stops any kind of experiment; the train job ends cancelled once its process group is gone.
    expect((await server.client.experiments.cancel.mutate({ id: first.experiment.id })).kind).toBe("finetune");
    const stopped = await waitForFineTune(server, first.experiment.id, "the cancel", hasEnded);
    expect(stopped.experiment.status, stopped.experiment.reason ?? "").toBe("cancelled");
    expect(stopped.resumable).toBe(true);
    const savedCurve = stopped.training!.trainLoss;
    expect(savedCurve.length).toBeGreaterThanOrEqual(3);

    // Two requests at once (Resume in two tabs): one attempt starts, the other is refused.
    const ops = [opId(), opId()];
    const both = await Promise.allSettled(ops.map((op) => server.client.finetune.resume.mutate({ id: first.experiment.id, opId: op })));
    expect(both.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const won = both.findIndex((r) => r.status === "fulfilled");
    const resumed = (both[won] as PromiseFulfilledResult<FineTuneView>).value;
    expect(String((both[1 - won] as PromiseRejectedResult).reason)).toContain("was already resumed as");
    // The same request again answers its own attempt.
    expect((await server.client.finetune.resume.mutate({ id: first.experiment.id, opId: ops[won]! })).experiment.id).toBe(resumed.experiment.id);
    expect(resumed.experiment.id).not.toBe(first.experiment.id);
    expect(resumed.resumedFrom).toEqual({ id: first.experiment.id, name: first.experiment.name });
    // Resumed once: the stopped experiment offers no second Resume, names its successor, and refuses another request.
    const after = await server.client.finetune.get.query({ id: first.experiment.id });
    expect({ resumable: after.resumable, resumedBy: after.resumedBy }).toEqual({ resumable: false, resumedBy: { id: resumed.experiment.id, name: resumed.experiment.name } });
    await expect(server.client.finetune.resume.mutate({ id: first.experiment.id, opId: opId() })).rejects.toThrow(`was already resumed as "${resumed.experiment.name}" (${resumed.experiment.id})`);
    // It goes straight to training: the first attempt's checks and preflight are its own.
    const going = await waitForFineTune(server, resumed.experiment.id, "the resumed training", (v) => (v.training?.resumedFromStep ?? null) !== null && (v.training?.step ?? 0) > v.training!.resumedFromStep! || hasEnded(v));
    expect(going.experiment.status, going.experiment.reason ?? "").toBe("running");
    expect(going.checks).toEqual(stopped.checks);
    expect(going.preflight).toEqual(stopped.preflight);
    const from = going.training!.resumedFromStep!;
    expect(from).toBeGreaterThanOrEqual(3);
    // The live curve is the saved one up to the checkpoint, then the new steps: no step 1 again.
    const steps = going.training!.trainLoss.map((p) => p.step);
    expect(steps.slice(0, from)).toEqual(Array.from({ length: from }, (_, i) => i + 1));
    expect(steps.slice(from).every((s) => s > from)).toBe(true);
    expect(going.training!.trainLoss.slice(0, from)).toEqual(savedCurve.slice(0, from));
    await server.client.experiments.cancel.mutate({ id: resumed.experiment.id });
    expect((await waitForFineTune(server, resumed.experiment.id, "the second cancel", hasEnded)).experiment.status).toBe("cancelled");
  });

  it("finishes an experiment whose server was killed during training, without starting a step twice", async () => {
    const settings = { base: { kind: "path" as const, path: model }, ...SMALL, maxSteps: 40, maxMinutes: 30 };
    const op = opId();
    const exp = await server.client.finetune.start.mutate({ opId: op, projectId, datasetId, settings });
    await waitForFineTune(server, exp.experiment.id, "training to start", (v) => (v.training?.step ?? 0) >= 1 || hasEnded(v));
    const port = Number(new URL(server.url).port);
    await server.kill9();
    server = await startTestServer({ home, env: REAL_TRAINING, port });
    const done = await waitForFineTune(server, exp.experiment.id, "the experiment to end after the restart", hasEnded, 8 * 60_000);
    expect(done.experiment.status, done.experiment.reason ?? "").toBe("succeeded");
    expect(done.training!.final).toMatchObject({ steps: 40, resumedFromStep: null });
    expect(done.receipt).not.toBeNull();
    const jobs = await server.client.jobs.list.query({ limit: 500 });
    const own = jobs.filter((j) => j.opId.startsWith(`${op}:`));
    expect(own.map((j) => j.jobName).sort()).toEqual(["check_data", "export", "preflight", "score", "train"]);
    // A resumed attempt ran only its own training: the first attempt's checks and preflight served it.
    expect(jobs.filter((j) => j.jobName === "check_data")).toHaveLength(2);
    // Three experiments on one base imported it once.
    expect(jobs.filter((j) => j.jobName === "import_base")).toHaveLength(1);
  });
});
