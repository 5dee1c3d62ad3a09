// A job waiting behind others says which ones hold what it needs, through the real server
// and worker: one job of a fine-tune holds half of This computer's CPUs, a job the server
// never admitted (another server's, say) the other half, and a third waits.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { WORKER_PROTOCOL } from "@/contracts/worker";
import { openDb } from "@/server/db/client";
import { localTransport } from "@/server/targets/transport";
import { fixtureServerForFile } from "@/server/testing/fixture-server";
import { fixtureInput, RECIPE, waitForState, type FixtureInput } from "@/server/testing/controller-fixtures";
import { REPO, waitFor } from "@/server/testing/server-harness";

const fx = fixtureServerForFile({ env: () => ({}), timeoutMs: 300_000 });
const releases: string[] = [];
afterAll(() => {
  // Whatever a failed assertion left waiting ends now, not at its deadline.
  for (const file of releases) writeFileSync(file, "go");
});

/** Submits straight to the worker, as another controller would: this server has no record of it. */
async function submitBesideTheServer(input: FixtureInput, cpus: number, environmentId: string): Promise<string> {
  const worker = localTransport({ label: "another server", bundlePath: path.join(REPO, "dist", "worker", "trainyard-worker.mjs"), workerHome: fx.home.workerHome, timeoutMs: 30_000 });
  const res = await worker.exec({
    protocol: WORKER_PROTOCOL,
    op: "submit",
    opId: `elsewhere-${randomUUID()}`,
    intentHash: "elsewhere",
    recipe: RECIPE,
    job: "run",
    environmentId,
    input: { ...input },
    resources: { cpus, ramGb: 0.1 },
    deadlineSeconds: 120,
  });
  return res.receipt.jobId;
}

describe("a job waiting for CPUs", () => {
  it("names the fine-tune and the unknown job using them in jobs.get and jobs.list, and stops once it runs", async () => {
    const { server, home, targetId } = fx;
    const probe = (await server.client.targets.get.query({ id: targetId })).probe!;
    const half = probe.capacity.cpus / 2;
    const environmentId = probe.recipes.find((r) => r.name === RECIPE)!.environmentId!;

    // A finished fine-tune to own the first job (the chain leaves ended experiments alone).
    const db = openDb(path.join(home.home, "trainyard.db"));
    const fineTune = await db.experiment.create({
      data: { projectId: "p", opId: `ft-${randomUUID()}`, intentHash: "h", name: "Fine-tune #2", kind: "finetune", status: "succeeded", targetId, targetRevision: 1, datasetId: "d", snapshotSha256: "s", settings: "{}", budgetSeconds: 600 },
    });
    await db.$disconnect();

    const mine = fixtureInput(home, "fine-tune-step");
    const theirs = fixtureInput(home, "elsewhere");
    const waiting = fixtureInput(home, "waiter");
    releases.push(mine.releaseFile, theirs.releaseFile);
    writeFileSync(waiting.releaseFile, "go");
    const holder = await server.client.jobs.admit.mutate({
      opId: `hold-${randomUUID()}`, targetId, recipe: RECIPE, job: "run", input: { ...mine }, resources: { cpus: half, ramGb: 0.1 }, deadlineSeconds: 120, experimentId: fineTune.id, step: "train",
    });
    const held = await waitForState(server, holder.id, ["running"]);
    const elsewhere = await submitBesideTheServer(theirs, half, environmentId);
    // More than half: it still waits once either holder alone is left.
    const needs = half + 0.5;
    const waiter = await server.client.jobs.admit.mutate({
      opId: `wait-${randomUUID()}`, targetId, recipe: RECIPE, job: "run", input: { ...waiting }, resources: { cpus: needs, ramGb: 0.1 }, deadlineSeconds: 120,
    });

    const cpus = String(probe.capacity.cpus);
    const words = `Waiting for CPUs: the fine-tune “Fine-tune #2” and another job are using them (${cpus} of ${cpus} reserved; this needs ${needs}).`;
    const seen = await waitFor("the waiting job to say who holds the CPUs", async () => {
      const j = await server.client.jobs.get.query({ id: waiter.id });
      return j.waiting === words ? j : undefined;
    });
    expect(seen.state).toBe("queued");
    expect(seen.waitingFor).toEqual({ resource: "cpus", needs, reserved: probe.capacity.cpus, capacity: probe.capacity.cpus, holders: [held.workerJobId, elsewhere] });
    // The old words stay for old readers.
    expect(seen.queuedReason).toBe(`waiting for CPUs (${cpus}/${cpus} reserved, needs ${needs})`);
    const listed = await server.client.jobs.list.query({ targetId, states: ["queued"] });
    expect(listed.find((j) => j.id === waiter.id)?.waiting).toBe(words);

    // Once the other server's job ends, only the fine-tune holds them: the words follow.
    writeFileSync(theirs.releaseFile, "go");
    await waitFor("the words to follow the holders", async () => {
      const j = await server.client.jobs.get.query({ id: waiter.id });
      return j.waiting === `Waiting for CPUs: the fine-tune “Fine-tune #2” is using them (${half} of ${cpus} reserved; this needs ${needs}).` ? j : undefined;
    });
    writeFileSync(mine.releaseFile, "go");
    const done = await waitForState(server, waiter.id, ["succeeded", "failed"]);
    expect(done.state).toBe("succeeded");
    expect(done.waiting).toBeNull();
    expect(done.waitingFor).toBeNull();
  });
});
