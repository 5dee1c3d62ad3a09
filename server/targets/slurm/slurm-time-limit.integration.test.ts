/**
 * A LoRA fine-tune of the tiny GPT-2 on a Slurm computer across Slurm's time limit, against
 * a real single-node Slurm (server/testing/slurm-cluster.ts) and the real server, worker and
 * recipe. Every job is submitted with `--signal=B:USR1@90`; the test delivers that signal
 * itself with `scancel --batch --signal=USR1` (what slurmctld sends 90 s before the limit)
 * rather than waiting minutes for a limit to come: the supervisor stops the recipe, which
 * saves a checkpoint, the job goes on as a new Slurm job, and training resumes at the saved
 * step. That Slurm job is then requeued with `scontrol requeue` — what Slurm does to a job
 * it preempts on a partition with PreemptMode=REQUEUE, or whose node fails: SIGTERM to each
 * of its processes, then the same Slurm job waits and starts again. The recipe saves a
 * checkpoint on SIGTERM, the job goes on where it stopped, and finishes in the same
 * experiment.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZReceipt, type TReceipt } from "@/contracts/worker";
import { allowedModelFolder, hasEnded, SMALL, uploadExamples, waitForFineTune } from "@/server/finetune/finetune-test-support";
import { makeTestHome, REPO, startTestServer, waitFor, type TestServer } from "@/server/testing/server-harness";
import { startSlurmCluster, type SlurmCluster } from "@/server/testing/slurm-cluster";
import { trainingProgress } from "@/components/finetune/finetune-words";

function trainReceipt(workerHome: string): TReceipt | undefined {
  const dir = path.join(workerHome, "receipts");
  if (!existsSync(dir)) return undefined;
  return readdirSync(dir)
    .map((f) => ZReceipt.parse(JSON.parse(readFileSync(path.join(dir, f), "utf8"))))
    .find((r) => r.recipe === "llm-lora" && r.job === "train");
}

describe("a fine-tune on a Slurm computer across Slurm's time limit and a preemption", { timeout: 600_000 }, () => {
  const home = makeTestHome();
  let cluster: SlurmCluster;
  let server: TestServer;
  let targetId: string;
  let projectId: string;
  let datasetId: string;
  let model: string;
  const workerHome = path.join(home.home, "computers", "cluster");

  beforeAll(async () => {
    cluster = await startSlurmCluster();
    server = await startTestServer({ home, env: { TRAINYARD_TRAINING_DIR: path.join(REPO, "training"), SLURM_CONF: cluster.conf } });
    targetId = (await server.client.targets.addSlurm.mutate({ name: "cluster", partition: cluster.partition })).id;
    // Allowed after the cluster is enrolled: Settings writes the folders into its worker's config too.
    ({ model } = await allowedModelFolder(server, home));
    projectId = (await server.client.projects.create.mutate({ name: "Slurm fine-tune" })).id;
    datasetId = await uploadExamples(server, projectId);
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
    await cluster?.stop();
  });

  it("stops at the time limit's signal and when Slurm requeues it, goes on from the saved step each time, and finishes", async () => {
    const settings = { base: { kind: "path" as const, path: model }, ...SMALL, maxSteps: 60, maxMinutes: 30 };
    const started = await server.client.finetune.start.mutate({ opId: `test-${randomUUID()}`, projectId, datasetId, targetId, settings });
    const training = await waitForFineTune(server, started.experiment.id, "training to pass step 3", (v) => (v.training?.step ?? 0) >= 3 || hasEnded(v));
    expect(training.experiment.status, training.experiment.reason ?? "").toBe("running");
    const first = trainReceipt(workerHome)!;
    expect(first).toMatchObject({ state: "running", slurmAttempts: [] });
    const firstSlurmJob = first.slurm!.jobId;
    expect(cluster.run("scontrol", ["show", "job", firstSlurmJob])).toMatch(/Requeue=1/);

    cluster.run("scancel", ["--batch", "--signal=USR1", firstSlurmJob]);
    const continued = await waitFor("the job to go on as a new Slurm job", () => {
      const r = trainReceipt(workerHome);
      return r && r.slurmAttempts.length === 1 ? r : undefined;
    }, 120_000, 250);
    expect(continued.slurmAttempts[0]).toMatchObject({ slurmJobId: firstSlurmJob, reason: "time_limit" });
    const secondSlurmJob = continued.slurm!.jobId;
    expect(secondSlurmJob).not.toBe(firstSlurmJob);
    expect(["running"]).toContain(continued.state);

    // Preempted: once training went on past its resumed step in the second Slurm job.
    const resumedAt = (await waitForFineTune(server, started.experiment.id, "training to go on after the time limit", (v) => (v.training?.resumedFromStep ?? 0) > 0 && (v.training?.step ?? 0) > v.training!.resumedFromStep! + 1 || hasEnded(v))).training!;
    expect(resumedAt.slurmStops).toEqual({ time_limit: 1, preempted: 0 });
    cluster.run("scontrol", ["requeue", secondSlurmJob]);
    await waitFor("Slurm to queue the job again", () => cluster.run("squeue", ["-h", "-j", secondSlurmJob, "-o", "%T"]).trim() === "PENDING", 60_000, 250);
    // Waiting in Slurm's queue again, it is still the same running job here.
    expect((await server.client.finetune.get.query({ id: started.experiment.id })).experiment.status).toBe("running");
    // Slurm holds a requeued job for about two minutes (its BeginTime) before starting it again; the test does not wait for that.
    cluster.run("scontrol", ["update", `jobid=${secondSlurmJob}`, "starttime=now"]);
    const requeued = await waitFor("the requeued Slurm job to go on with the job", () => {
      const r = trainReceipt(workerHome);
      return r && r.slurmAttempts.length === 2 && r.recipeProcess ? r : undefined;
    }, 240_000, 250);
    expect(requeued.slurmAttempts[1]).toMatchObject({ slurmJobId: secondSlurmJob, reason: "preempted" });
    expect(requeued.slurm!.jobId).toBe(secondSlurmJob);
    expect(requeued.state).toBe("running");

    const done = await waitForFineTune(server, started.experiment.id, "the fine-tune to end", hasEnded, 300_000);
    expect(done.experiment.status, done.experiment.reason ?? "").toBe("succeeded");
    expect(done.training!.final).toMatchObject({ steps: 60, stoppedBy: "completed" });
    // Resumed at the step it saved, in the same experiment: the curve goes on, no step 1 again.
    const from = done.training!.resumedFromStep!;
    expect(from).toBeGreaterThan(resumedAt.resumedFromStep!);
    expect(done.training!.slurmStops).toEqual({ time_limit: 1, preempted: 1 });
    expect(trainingProgress(done.training).words).toContain(`stopped at Slurm's time limit and preempted by Slurm, resumed at step ${from}`);
    const steps = done.training!.trainLoss.map((p) => p.step);
    expect(steps.filter((s) => s === 1)).toHaveLength(1);
    const ended = trainReceipt(workerHome)!;
    expect(ended).toMatchObject({ state: "succeeded", slurmAttempts: [{ slurmJobId: firstSlurmJob, reason: "time_limit" }, { slurmJobId: secondSlurmJob, reason: "preempted" }] });
    const log = readFileSync(path.join(ended.jobDir, "log"), "utf8");
    expect(log).toContain("Slurm's time limit is near (SIGUSR1)");
    expect(log).toContain(`attempt 2, Slurm job ${secondSlurmJob}, after Slurm's time limit: the recipe resumes from its checkpoint`);
    expect(log).toContain("Slurm is stopping the job (SIGTERM: preempted, requeued or cancelled in Slurm)");
    expect(log).toContain(`attempt 3, Slurm job ${secondSlurmJob}, after Slurm stopped it and started it again (preempted or requeued): the recipe resumes from its checkpoint`);
  });
});
