import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TWaitingFor } from "@/contracts/worker";
import type { Db } from "@/server/db/client";
import { openTestDb } from "@/server/testing/test-db";
import { jobsService } from "./jobs.service";
import { describeWaiting, firstWaiting, waitingSentence, type JobOwner } from "./waiting-words";

const cpus = (holders: string[] = []): TWaitingFor => ({ resource: "cpus", needs: 2, reserved: 2, capacity: 2, holders });
const fineTune: JobOwner = { kind: "experiment", experimentKind: "finetune", name: "Fine-tune #2" };
const training: JobOwner = { kind: "experiment", experimentKind: "tabular", name: "Experiment 3" };
const unknown: JobOwner = { kind: "unknown" };

describe("the words of a wait", () => {
  it("names the run holding what the job needs, with the numbers", () => {
    expect(waitingSentence(cpus(["a"]), [fineTune])).toBe("Waiting for CPUs: the fine-tune “Fine-tune #2” is using them (2 of 2 reserved; this needs 2).");
    expect(waitingSentence({ resource: "ram", needs: 4, reserved: 6.25, capacity: 8, holders: ["a"] }, [{ kind: "deployment", name: "species-api" }])).toBe(
      "Waiting for memory: the deployment “species-api” is using it (6.3 of 8 GB reserved; this needs 4 GB).",
    );
    expect(waitingSentence({ resource: "gpus", needs: 1, reserved: 1, capacity: 1, holders: ["a"] }, [{ kind: "trial", number: 3, search: "Penguins" }])).toBe(
      "Waiting for GPUs: trial 3 of the search “Penguins” is using them (1 of 1 in use; this needs 1).",
    );
    expect(waitingSentence({ resource: "gpu_memory", needs: 40, reserved: 50, capacity: 80, holders: ["a"] }, [fineTune])).toBe(
      "Waiting for GPU memory: the fine-tune “Fine-tune #2” is using it (50 of 80 GB reserved on the GPU with the most room; this needs 40 GB).",
    );
    expect(waitingSentence({ resource: "gpu_memory", needs: 8, reserved: 0, capacity: null, holders: ["a"] }, [unknown])).toBe(
      "Waiting for GPU memory: another job is using it (this needs 8 GB on one GPU).",
    );
  });

  it("says a run once for its several jobs, lists several, and counts the ones it does not know", () => {
    expect(waitingSentence(cpus(["a", "b"]), [training, training])).toBe("Waiting for CPUs: the training “Experiment 3” is using them (2 of 2 reserved; this needs 2).");
    expect(waitingSentence(cpus(["a", "b", "c"]), [training, { kind: "prediction" }, unknown])).toBe(
      "Waiting for CPUs: the training “Experiment 3”, a prediction and another job are using them (2 of 2 reserved; this needs 2).",
    );
    expect(waitingSentence(cpus(["a", "b"]), [unknown, unknown])).toBe("Waiting for CPUs: 2 other jobs are using them (2 of 2 reserved; this needs 2).");
    expect(waitingSentence(cpus([]), [])).toBe("Waiting for CPUs (2 of 2 reserved; this needs 2).");
  });
});

describe("holders named from the server's records", () => {
  let db: Db;
  let close: () => Promise<void>;
  let targetId: string;
  beforeAll(async () => {
    ({ db, close } = await openTestDb());
    targetId = (await db.target.create({ data: { name: "This computer", kind: "local" } })).id;
  });
  afterAll(async () => {
    await close?.();
  });

  let n = 0;
  const job = (over: { workerJobId: string; opId?: string; workerId?: string; jobName?: string; experimentId?: string; state?: string; waitingFor?: TWaitingFor }) =>
    db.job.create({
      data: {
        opId: over.opId ?? `op-${++n}`,
        intentHash: "h",
        targetId,
        targetRevision: 1,
        workerId: over.workerId ?? "worker-1",
        recipe: over.jobName === "prepare" ? "llm-lora" : "ctltest",
        recipeVersion: "0.3.0",
        jobName: over.jobName ?? "run",
        environmentId: "e".repeat(64),
        input: "{}",
        resources: "{}",
        deadlineSeconds: 60,
        state: over.state ?? "running",
        workerJobId: over.workerJobId,
        experimentId: over.experimentId ?? null,
        waitingFor: over.waitingFor ? JSON.stringify(over.waitingFor) : null,
      },
    });
  const experiment = (name: string, kind: string, opId = `exp-${name}`) =>
    db.experiment.create({
      data: { projectId: "p", opId, intentHash: "h", name, kind, targetId, targetRevision: 1, datasetId: "d", snapshotSha256: "s", settings: "{}", budgetSeconds: 60 },
    });

  it("says which fine-tune, training, trial, deployment, try, planner, prediction or setup holds it, and another job for the rest", async () => {
    const ft = await experiment("Fine-tune #2", "finetune", "ft-op");
    const tab = await experiment("Experiment 3", "tabular");
    const trialExp = await experiment("Penguins — trial 3", "search_trial");
    const search = await db.search.create({
      data: { projectId: "p", opId: "search-op", intentHash: "h", name: "Penguins", targetId, datasetId: "d", snapshotSha256: "s", spec: "{}", createdBy: "owner" },
    });
    await db.searchTrial.create({ data: { searchId: search.id, number: 3, status: "running", proposer: "{}", params: "{}", experimentId: trialExp.id } });
    const deployment = await db.deployment.create({ data: { projectId: "p", name: "species-api", nameKey: "species-api", mode: "resident", targetId, modelId: "m", state: "serving" } });
    const release = await db.deploymentRelease.create({ data: { deploymentId: deployment.id, number: 1, versionId: "v", kind: "create", why: "", actor: "{}" } });

    await job({ workerJobId: "w-ft", experimentId: ft.id });
    await job({ workerJobId: "w-tab", experimentId: tab.id });
    await job({ workerJobId: "w-trial", experimentId: trialExp.id });
    await job({ workerJobId: "w-serve", opId: `serve:${release.id}:retry` });
    await job({ workerJobId: "w-try", opId: "ft-op:try:abc" });
    await job({ workerJobId: "w-plan", opId: `search:${search.id}:suggest:4` });
    await job({ workerJobId: "w-predict", opId: "predict:123" });
    await job({ workerJobId: "w-prep", jobName: "prepare" });
    await job({ workerJobId: "w-other" });
    // The same worker job id on another worker is another ledger's job: not this one's holder.
    await job({ workerJobId: "w-elsewhere", workerId: "worker-2", experimentId: tab.id });

    const holders = ["w-ft", "w-tab", "w-trial", "w-serve", "w-try", "w-plan", "w-predict", "w-prep", "w-other", "w-elsewhere", "w-gone"];
    const waiter = await job({ workerJobId: "w-waiter", state: "queued", waitingFor: cpus(holders) });
    const words = await describeWaiting(db, [{ ...waiter, waitingFor: cpus(holders) }]);
    expect(words.get(waiter.id)).toBe(
      "Waiting for CPUs: the fine-tune “Fine-tune #2”, the training “Experiment 3”, trial 3 of the search “Penguins”, the deployment “species-api”, " +
        "a “Try it” answer of the fine-tune “Fine-tune #2”, the planner of the search “Penguins”, a prediction, the setup of the llm-lora tools, " +
        "the job ctltest.run and 2 other jobs are using them (2 of 2 reserved; this needs 2).",
    );

    // The job views carry it typed and in these words; a job that no longer waits has neither words nor stale ones.
    const view = await jobsService(db).get(waiter.id);
    expect(view.waitingFor).toEqual(cpus(holders));
    expect(view.waiting).toBe(words.get(waiter.id));
    const listed = (await jobsService(db).list({ limit: 100 })).find((j) => j.id === waiter.id);
    expect(listed?.waiting).toBe(words.get(waiter.id));
    expect((await jobsService(db).get((await job({ workerJobId: "w-admitted", state: "admitted", waitingFor: cpus(["w-ft"]) })).id)).waiting).toBeNull();
  });

  it("tells an experiment's first step that says why it waits, passing over one queued behind it with no words", async () => {
    const exp = await experiment("Experiment 4", "tabular");
    await job({ workerJobId: "w-exp4", experimentId: exp.id });
    const behind = await job({ workerJobId: "w-behind", state: "queued" });
    const waiter = await job({ workerJobId: "w-head", state: "queued", waitingFor: cpus(["w-exp4"]) });
    const running = await job({ workerJobId: "w-run" });
    expect(await firstWaiting(db, [running, undefined, behind, waiter])).toBe("Waiting for CPUs: the training “Experiment 4” is using them (2 of 2 reserved; this needs 2).");
    // An older worker says it in words only: those are shown.
    const old = await db.job.update({ where: { id: behind.id }, data: { queuedReason: "waiting for CPUs (2/2 reserved, needs 1)" } });
    expect(await firstWaiting(db, [old, waiter])).toBe("waiting for CPUs (2/2 reserved, needs 1)");
    expect(await firstWaiting(db, [running, undefined])).toBeNull();
  });
});
