/**
 * A resident deployment on an SSH computer, through the real server, a real loopback sshd,
 * the real worker installed there and the real tabular recipe on penguins: the version is
 * trained on the server and deployed resident there from the CLI; its export is copied into
 * the server's store, its serving job runs under the server's supervisor, and requests reach
 * its Unix socket through the SSH connection (stream-local forwarding: no TCP port). A
 * training that wants every CPU of the server is admitted while the deployment is resident
 * (serving holds its memory budget, not a CPU). Predictions go on after every SSH connection
 * was dropped; a serving process killed there is restarted by the reconcile loop; with the
 * link cut it says unreachable (503 at once) and serves again, unrestarted, once the link is
 * back. A switch under a steady stream of requests loses none; stop leaves no
 * process of the serving group. An on-demand deployment there keeps nothing of a request,
 * on the server or on the computer.
 */
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { servingSocketPath, ZDeploymentPredictResponse } from "@/contracts/deployments/serving";
import { upload, waitForProfile } from "@/server/datasets/test-support";
import { pidsWhere } from "@/server/testing/proc-scan";
import { REPO, waitFor } from "@/server/testing/server-harness";
import { sshLabForFile } from "@/server/testing/ssh-lab";
import { call, cliJson, filesContaining, GENTOO, PENGUINS, ROW, ZMade } from "./test-support";
import { ONE_LIGHTGBM } from "@/server/testing/one-model";

const MODEL = "Penguins on the lab";
const COMPUTER = "Lab server";

let projectId = "";
let datasetId = "";

// The lab's own beforeAll builds the app and enrolls the sshd; the training has one of its own (below).
// Its sshd is in a network namespace of its own (root only), so the link to it can be cut.
const { home, server, sshd, lab } = sshLabForFile({ name: COMPUTER, netns: `tydep${process.pid % 1000}`, env: { TRAINYARD_TRAINING_DIR: path.join(REPO, "training") } });

/** Version 1 of MODEL: a real quick training on the lab, registered. */
async function trainedVersion() {
  projectId = (await server.client.projects.create.mutate({ name: "Default" })).id;
  const uploaded = await upload(server, projectId, "penguins.csv", readFileSync(PENGUINS));
  datasetId = uploaded.body.datasetId!;
  expect((await waitForProfile(server, datasetId)).status).toBe("ready");
  const exp = await startTraining(server, lab.id);
  const done = await waitFor("the training on the lab to end", async () => {
    const d = await server.client.experiments.get.query({ id: exp.id });
    return d.status !== "running" ? d : undefined;
  }, 360_000, 1000);
  expect(done.status, done.note ?? "").toBe("succeeded");
  await server.client.models.register.mutate({ experimentId: exp.id, newModelName: MODEL });
}

function startTraining(s: typeof server, targetId: string) {
  return s.client.experiments.start.mutate({
    opId: randomUUID(),
    projectId,
    datasetId,
    targetId,
    settings: { target: "species", task: "multiclass", metric: "accuracy", mode: "quick", maxMinutes: 2, hyperparameters: ONE_LIGHTGBM },
  });
}


/** Processes of the process group `pgid` still alive (not zombies), read from /proc. */
const groupPids = (pgid: number) =>
  pidsWhere("stat", (stat) => {
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(f[2]) === pgid && f[0] !== "Z";
  });

describe("a resident deployment on an SSH computer", { timeout: 300_000 }, () => {
  beforeAll(trainedVersion, 400_000);

  it("serves through the SSH connection, beside a training, across dropped connections, a kill -9 and a switch; stop ends its process group", async () => {
    const made = await cliJson(server.url, ["deploy", `${MODEL}:1`, "--mode", "resident", "--computer", COMPUTER, "--name", "lab-api"]);
    expect(made.code, made.stderr).toBe(0);
    expect(made.json).toMatchObject({ mode: "resident", state: "loading", release: { number: 1 } });
    const d = ZMade.parse(made.json);
    const key = (await cliJson(server.url, ["deployments", "keys", "create", "lab-api"])).json.key as string;
    await waitFor("the resident release to load on the lab", async () => {
      const h = await call(d.urls.health, key);
      if (h.body.state === "failed") throw new Error(`the deployment failed: ${String(h.body.reason)}`);
      return h.body.state === "ready" ? h.body : undefined;
    }, 120_000, 500);

    // The serving job runs on the lab, from the lab's store, listening on a socket in the lab's worker home.
    const servingJob = async () => (await server.client.jobs.list.query({ limit: 200 })).filter((j) => j.recipe === "serve-tabular" && j.state === "running");
    const [first] = await servingJob();
    expect(first).toMatchObject({ targetId: lab.id });
    const labHome = path.join(lab.workerDir, "home");
    expect(existsSync(servingSocketPath(labHome, first!.workerJobId!))).toBe(true);
    const modelId = (await server.client.deployments.show.query({ deploymentId: d.id })).deployment.model.id;
    const exportSha = (await server.client.models.show.query({ modelId })).versions[0]!.exportSha256!;
    expect(existsSync(path.join(labHome, "store", exportSha.slice(0, 2), exportSha))).toBe(true);

    const predict = () => call(d.urls.predict, key, { rows: [ROW, GENTOO] });
    const answer = await predict();
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(ZDeploymentPredictResponse.parse(answer.body).predictions.map((p) => p.prediction)).toEqual(["Adelie", "Gentoo"]);
    expect((await call(d.urls.health, key)).body).toMatchObject({ state: "ready", serving: { inFlight: expect.any(Number) } });

    // A training that takes every CPU of the lab starts while the deployment is resident.
    const capacity = (await server.client.targets.list.query()).find((t) => t.id === lab.id)!;
    const second = await startTraining(server, lab.id);
    const train = await waitFor("the second training's train job to start", async () => {
      const j = (await server.client.jobs.list.query({ limit: 200 })).find((x) => x.recipe === "tabular" && x.jobName === "train" && x.state !== "succeeded" && x.targetId === lab.id);
      return j && ["running", "succeeded", "failed", "cancelled"].includes(j.state) ? j : undefined;
    }, 90_000, 500);
    expect(train.state).toBe("running");
    expect((train.resources as { cpus?: number }).cpus, JSON.stringify(capacity)).toBeGreaterThanOrEqual(2);
    expect((await predict()).status).toBe(200);
    await server.client.experiments.cancel.mutate({ id: second.id });

    // Every SSH connection drops (the sshd's session processes killed): the next request reconnects.
    expect(sshd.killSessions()).toBeGreaterThan(0);
    const afterDrop = await predict();
    expect(afterDrop.status, JSON.stringify(afterDrop.body)).toBe(200);
    expect((await call(d.urls.health, key)).body).toMatchObject({ state: "ready" });

    // kill -9 of the serving process on the lab: the reconcile loop sees its job end there and restarts it.
    const receipt = (jobId: string) => JSON.parse(readFileSync(path.join(labHome, "receipts", `${jobId}.json`), "utf8")) as { recipeProcess: { pid: number } };
    process.kill(receipt(first!.workerJobId!).recipeProcess.pid, "SIGKILL");
    const restarted = await waitFor("the serving process to be restarted on the lab", async () => {
      const [now] = await servingJob();
      const h = await call(d.urls.health, key);
      return h.body.state === "ready" && now && now.id !== first!.id ? now : undefined;
    }, 90_000, 250);
    expect(restarted.targetId).toBe(lab.id);
    expect((await predict()).status).toBe(200);

    // The link to the lab is cut: a request finds no stream, the deployment says unreachable,
    // and its routes refuse at once (not after the SSH timeouts); once the link is back, its
    // process answers a probe and it serves again, without a restart.
    sshd.cutLink();
    try {
      const first = await predict();
      expect(first.status, JSON.stringify(first.body)).toBe(503);
      const t0 = Date.now();
      const refused = await fetch(d.urls.predict, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify({ rows: [ROW] }) });
      expect(Date.now() - t0).toBeLessThan(2000);
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("5");
      expect(await refused.json()).toMatchObject({ code: "unreachable" });
      expect(await call(d.urls.health, key)).toMatchObject({ status: 503, body: { state: "unreachable" } });
    } finally {
      sshd.restoreLink();
    }
    await waitFor("the deployment to serve again once the link is back", async () => ((await call(d.urls.health, key)).body.state === "ready" ? true : undefined), 90_000, 500);
    expect((await predict()).status).toBe(200);
    expect((await servingJob()).map((j) => j.id)).toEqual([restarted.id]);

    // A switch under a steady stream of requests: none of them fails.
    const statuses: number[] = [];
    let switching = true;
    const stream = (async () => {
      while (switching) statuses.push((await predict()).status);
    })();
    const revision = (await server.client.deployments.show.query({ deploymentId: d.id })).deployment.revision;
    const switched = await server.client.deployments.switch.mutate({ deploymentId: d.id, expectedRevision: revision, version: 1, why: "a new release under load" });
    for (let i = 0; i < 5; i++) statuses.push((await predict()).status);
    switching = false;
    await stream;
    expect(switched.release).toMatchObject({ number: 2 });
    expect(statuses.length).toBeGreaterThan(5);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    console.log(`${statuses.length} requests during and after the switch, none failed`);
    const oldGroup = receipt(restarted.workerJobId!).recipeProcess.pid;
    await waitFor("release 1's serving process group to end", () => (groupPids(oldGroup).length === 0 ? true : undefined), 30_000, 250);

    // Stop: `stopped` only once the serving process group is gone.
    const [current] = await servingJob();
    expect(current!.id).not.toBe(restarted.id);
    const group = receipt(current!.workerJobId!).recipeProcess.pid;
    expect(groupPids(group).length).toBeGreaterThan(0);
    const stopped = await cliJson(server.url, ["deployments", "stop", "lab-api"]);
    expect(stopped.json).toMatchObject({ state: "stopped" });
    expect(groupPids(group)).toEqual([]);
    expect((await predict()).status).toBe(503);
  });

  it("keeps nothing of an on-demand request on the SSH computer: a sentinel in its rows is found nowhere there or on the server afterwards", async () => {
    const made = await cliJson(server.url, ["deploy", `${MODEL}:1`, "--mode", "on-demand", "--computer", COMPUTER, "--name", "lab-od"]);
    expect(made.code, made.stderr).toBe(0);
    const d = ZMade.parse(made.json);
    const key = (await cliJson(server.url, ["deployments", "keys", "create", "lab-od"])).json.key as string;
    const sentinel = `sentinel-${randomUUID()}`;
    const answers = await Promise.all([0, 1].map(() => call(d.urls.predict, key, { rows: [{ ...ROW, sex: sentinel }] })));
    answers.push(await call(d.urls.predict, key, { rows: [{ ...ROW, sex: sentinel }, GENTOO] }));
    for (const r of answers) expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(filesContaining(lab.workerDir, sentinel)).toEqual([]);
    expect(filesContaining(home.root, sentinel)).toEqual([]);
  });
});
