/**
 * Deployments through the real server, worker and tabular recipe on real data (penguins):
 * one real training registered as version 1, deployed on demand from the CLI; a key of
 * that deployment predicts through POST /api/deployments/:id/predict; a wrong, revoked or
 * other deployment's key is refused (401), and so is the key anywhere but its own routes;
 * rows that do not match the feature schema are refused field by field; stop → health says
 * stopped and predict answers 503; /generate answers 404 naming /predict; a switch and a
 * rollback are new releases. A resident
 * release runs in its own serving process; a switch under a steady stream of requests loses
 * none of them; after kill -9 of it the deployment restarts it
 * (three times within ten minutes), then stays failed saying why and what to do. A release
 * over its memory budget fails saying so; a budget above the computer's memory is refused.
 * kill -9 of the server leaves a resident release loaded: the restarted server answers from
 * the same serving process.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { ZDeploymentHealth, ZDeploymentPredictResponse, type DeploymentHealth } from "@/contracts/deployments/serving";
import { runCli } from "@/server/testing/cli-process";
import { makeTestHome, REPO, startTestServer, waitFor, type TestHome, type TestServer } from "@/server/testing/server-harness";
import { runSchemathesis } from "@/server/testing/schemathesis";
import { protocolClientsPython, runToEnd } from "@/server/testing/test-venv";
import { ZScoringAnswer } from "@/server/protocols/mlflow/scoring-answer";
import { curlInvocationsExample, exampleRow } from "@/components/deployments/route-examples";
import { cliAsync } from "@/tests/support/server-process";
import { call, cliJson, filesContaining, GENTOO, ROW, trainedPenguins, ZMade } from "./test-support";

const MODEL = "Penguin species";

/** What tests/protocol-clients/tabular_protocols_check.py prints: per call, its status, Content-Type and answer. */
const ZCall = z.object({ status: z.number(), content_type: z.string().nullable(), body: z.unknown() });
const ZClientAnswers = z.object({ dataframe_split: ZCall, dataframe_records: ZCall, instances: ZCall, inputs: ZCall, csv: ZCall, infer: ZCall, ping: ZCall, ready: ZCall });


/** Every file under `dir` whose bytes contain `text` (the database and its WAL included). */
describe("a deployment of a registered tabular version", { timeout: 600_000 }, () => {
  let server: TestServer;
  let home: TestHome;
  let a: z.infer<typeof ZMade>;
  let b: z.infer<typeof ZMade>;
  let keyA = "";
  let keyB = "";

  beforeAll(async () => {
    home = makeTestHome();
    server = await startTestServer({ home, env: { TRAINYARD_TRAINING_DIR: path.join(REPO, "training") } });
    const projectId = (await server.client.projects.create.mutate({ name: "Default" })).id;
    const { experimentId } = await trainedPenguins(server, projectId);
    await server.client.models.register.mutate({ experimentId, newModelName: MODEL });
  });
  afterAll(() => server?.stop());

  it("deploys version 1 on demand from the CLI, with its route URLs; a taken name and an unknown computer are refused", async () => {
    const made = await cliJson(server.url, ["deploy", `${MODEL}:1`, "--name", "species-api"]);
    expect(made.code, made.stderr).toBe(0);
    expect(made.json).toMatchObject({ name: "species-api", state: "ready", mode: "on_demand", followsAlias: null, release: { number: 1, version: 1, kind: "create" } });
    a = ZMade.parse(made.json);
    expect(a.urls.predict).toBe(`${server.url}/api/deployments/${a.id}/predict`);
    const other = await cliJson(server.url, ["deploy", `${MODEL.toLowerCase()}:1`, "--name", "other"]);
    expect(other.code, other.stderr).toBe(0);
    b = ZMade.parse(other.json);
    expect((await cliJson(server.url, ["deploy", `${MODEL}:1`, "--name", "SPECIES-API"])).json.error?.code).toBe("name_taken");
    expect((await cliJson(server.url, ["deploy", `${MODEL}:1`, "--computer", "nowhere"])).json.error?.code).toBe("unknown_computer");
    expect((await cliJson(server.url, ["deploy", `${MODEL}:9`])).json.error?.code).toBe("not_found");
  });

  it("predicts rows through the public route with a key of the deployment, and counts only aggregates", async () => {
    const k = await cliJson(server.url, ["deployments", "keys", "create", "species-api", "--name", "ci"]);
    expect(k.code, k.stderr).toBe(0);
    expect(Object.keys(k.json).sort()).toEqual(["id", "key"]);
    keyA = k.json.key as string;
    keyB = (await cliJson(server.url, ["deployments", "keys", "create", b.id])).json.key as string;
    const r = await call(a.urls.predict, keyA, { rows: [ROW, GENTOO] });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const answer = ZDeploymentPredictResponse.parse(r.body);
    expect(answer.predictions.map((p) => p.prediction)).toEqual(["Adelie", "Gentoo"]);
    for (const p of answer.predictions) expect(Object.values(p.probabilities ?? {}).reduce((s, x) => s + x, 0)).toBeCloseTo(1, 3);
    expect(answer.release).toMatchObject({ number: 1, version: 1 });
    const shown = await server.client.deployments.show.query({ deploymentId: a.id });
    expect(shown.stats).toEqual([expect.objectContaining({ requests: 1, errors: {}, lastHour: expect.objectContaining({ requests: 1, errors: 0 }) })]);
    const latency = (await server.client.deployments.latency.query({ projectId: shown.deployment.projectId }))[a.id];
    expect(latency).toMatchObject({ requests: 1, quietLastHour: false, lastHour: { requests: 1, errors: 0 } });
    expect(latency?.lastHour.p95Ms).toEqual(latency?.p95Ms);
    const generate = await call(`${server.url}/api/deployments/${a.id}/generate`, keyA, { prompt: "hi" });
    expect(generate).toMatchObject({ status: 404, body: { code: "wrong_kind", details: { use: [`/api/deployments/${a.id}/predict`] } } });
    expect(JSON.stringify(shown)).not.toContain(keyA);
  });

  it("keeps nothing of an on-demand request: a sentinel value in its rows is found nowhere in the data home afterwards", async () => {
    const sentinel = `sentinel-${randomUUID()}`;
    // Twice at once with the same rows (one shared blob), then once more.
    const answers = await Promise.all([0, 1].map(() => call(a.urls.predict, keyA, { rows: [{ ...ROW, sex: sentinel }] })));
    answers.push(await call(a.urls.predict, keyA, { rows: [{ ...ROW, sex: sentinel }, GENTOO] }));
    for (const r of answers) expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(filesContaining(home.home, sentinel)).toEqual([]);
  });

  it("refuses rows that do not match the feature schema, field by field, before any job runs", async () => {
    const r = await call(a.urls.predict, keyA, { rows: [{ ...ROW, bill_length_mm: "long", wings: 2 }] });
    expect(r.status).toBe(400);
    expect((r.body.details as { fields: unknown[] }).fields).toEqual([
      { path: "rows[0].wings", message: "not a feature of this model" },
      { path: "rows[0].bill_length_mm", message: 'a number is expected (got "long")' },
    ]);
  });

  it("is what its OpenAPI document says: Schemathesis against the live routes, with an API token, finds no 5xx and no answer outside the document", async () => {
    const made = await cliAsync(["token", "create", "fuzz"], { TRAINYARD_HOME: home.home });
    expect(made.status, made.stderr).toBe(0);
    const run = await runSchemathesis({ baseUrl: server.url, token: made.stdout.trim(), pathValues: { id: a.id }, maxExamples: 25 });
    expect(run.code, run.output).toBe(0);
    // Every operation of the document (the protocol routes' included), on generated valid and invalid requests.
    const doc = (await call(`${server.url}/api/openapi.json`, made.stdout.trim())).body as { paths: Record<string, object> };
    const operations = Object.values(doc.paths).reduce((n, p) => n + Object.keys(p).length, 0);
    expect(run.output).toMatch(new RegExp(`Operations:\\s+${operations} selected / ${operations} total`));
    expect(run.output).toMatch(new RegExp(`Tested: ${operations}\\b`));
    expect(run.output).toMatch(/(\d{3,}) generated, \1 passed/);
  });

  it("refuses a wrong key, another deployment's key, and the key on any other route", async () => {
    // No owner password is set on this server, so every other route lets a local caller in;
    // a deployment's routes still want a key.
    expect((await call(a.urls.predict, null, { rows: [ROW] })).status).toBe(401);
    expect((await call(a.urls.health, null)).status).toBe(401);
    expect((await call(a.urls.predict, `${keyA}x`, { rows: [ROW] })).status).toBe(401);
    expect((await call(a.urls.predict, keyB, { rows: [ROW] })).status).toBe(401);
    expect((await call(`${server.url}/api/deployments/${b.id}/health`, keyA)).status).toBe(401);
    expect((await call(`${server.url}/api/trpc/deployments.list?input=${encodeURIComponent(JSON.stringify({ json: { projectId: "x" } }))}`, keyA)).status).toBe(401);
    expect((await fetch(`${server.url}/settings`, { headers: { authorization: `Bearer ${keyA}` }, redirect: "manual" })).status).toBe(401);
    expect((await call(`${server.url}/api/deployments/${b.id}/health`, keyB)).body).toMatchObject({ state: "ready" });
  });

  it("speaks MLflow's scoring protocol and Open Inference v2 to pandas and requests with /predict's predictions, and refuses what it cannot read naming the field", async () => {
    const rows = [ROW, GENTOO];
    const base = `${server.url}/api/deployments/${a.id}`;
    const predicted = ZDeploymentPredictResponse.parse((await call(a.urls.predict, keyA, { rows })).body).predictions;
    const labels = predicted.map((p) => p.prediction);
    const script = path.join(REPO, "tests/protocol-clients/tabular_protocols_check.py");
    const out = ZClientAnswers.parse(JSON.parse(await runToEnd(await protocolClientsPython(), [script, "--base", base, "--key", keyA, "--model", "species-api", "--rows", JSON.stringify(rows)])));
    for (const shape of ["dataframe_split", "dataframe_records", "instances", "inputs", "csv"] as const) {
      expect(out[shape], shape).toEqual({ status: 200, content_type: "application/json", body: { predictions: labels, probabilities: predicted.map((p) => p.probabilities) } });
    }
    const classes = Object.keys(predicted[0]!.probabilities!);
    expect(out.infer).toMatchObject({ status: 200 });
    expect(out.infer.body).toEqual({
      model_name: "species-api",
      model_version: "1",
      id: "42",
      outputs: [
        { name: "predict", shape: [2], datatype: "BYTES", data: labels },
        { name: "predict_proba", shape: [2, classes.length], datatype: "FP64", data: predicted.flatMap((p) => classes.map((c) => p.probabilities![c])) },
        { name: "classes", shape: [classes.length], datatype: "BYTES", data: classes },
      ],
    });
    expect(out.ping).toMatchObject({ status: 200 });
    expect(out.ready).toMatchObject({ status: 200, body: { ready: true } });

    // Refusals: keys as on /predict (401); bodies MLflow or Open Inference clients could not have meant, each naming its field.
    const send = (route: string, key: string, body: unknown, type = "application/json") =>
      fetch(`${base}/${route}`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": type }, body: typeof body === "string" ? body : JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));
    const split = { columns: Object.keys(ROW), data: [Object.values(ROW)] };
    const infer = "v2/models/species-api/infer";
    const tensors = { inputs: Object.entries(ROW).map(([name, v]) => ({ name, shape: [1], datatype: typeof v === "number" ? "FP64" : "BYTES", data: [v] })) };
    for (const key of [`${keyA}x`, keyB]) {
      expect((await send("invocations", key, { dataframe_split: split })).status).toBe(401);
      expect((await send(infer, key, tensors)).status).toBe(401);
      expect((await call(`${base}/ping`, key)).status).toBe(401);
      expect((await call(`${base}/v2/health/ready`, key)).status).toBe(401);
    }
    const fieldsOf = async (route: string, body: unknown, type?: string) => {
      const r = await send(route, keyA, body, type);
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      return r.body;
    };
    expect(await fieldsOf("invocations", { instances: [ROW], inputs: [ROW] })).toMatchObject({ error_code: "BAD_REQUEST", fields: [{ path: "instances" }, { path: "inputs" }] });
    expect(await fieldsOf("invocations", { rows: [ROW] })).toMatchObject({ error_code: "BAD_REQUEST", fields: [{ path: "rows" }, { path: "dataframe_split | dataframe_records | instances | inputs" }] });
    const { island: _island, ...noIsland } = ROW;
    expect(await fieldsOf("invocations", { dataframe_split: { columns: Object.keys(noIsland), data: [Object.values(noIsland)] } })).toMatchObject({ fields: [{ path: "island", message: expect.stringMatching(/^required/) }] });
    const longBill = { ...split, data: [split.data[0]!.map((v, j) => (split.columns[j] === "bill_length_mm" ? "long" : v))] };
    expect((await fieldsOf("invocations", { dataframe_split: longBill })).fields).toEqual([{ path: `dataframe_split.data[0][${split.columns.indexOf("bill_length_mm")}]`, message: 'a number is expected (got "long")' }]);
    expect((await fieldsOf("invocations", "island,year\nBiscoe,long ago\n", "text/csv")).fields).toEqual([{ path: "csv[0].year", message: 'a number is expected (got "long ago")' }]);
    expect(await fieldsOf("invocations", "island=Biscoe", "application/x-www-form-urlencoded")).toMatchObject({ error_code: "BAD_REQUEST", fields: [{ path: "Content-Type" }] });
    const bytesBill = { inputs: tensors.inputs.map((t) => (t.name === "bill_length_mm" ? { ...t, datatype: "BYTES", data: ["39.1"] } : t)) };
    const at = tensors.inputs.findIndex((t) => t.name === "bill_length_mm");
    expect(await fieldsOf(infer, bytesBill)).toMatchObject({ error: expect.stringContaining(`inputs[${at}].data[0]`), fields: [{ path: `inputs[${at}].data[0]`, message: 'a number is expected (got "39.1")' }] });
    expect(await fieldsOf(infer, { inputs: tensors.inputs.filter((t) => t.name !== "island") })).toMatchObject({ fields: [{ path: "island", message: expect.stringMatching(/^required/) }] });
    const otherModel = await send("v2/models/other-api/infer", keyA, tensors);
    expect(otherModel).toMatchObject({ status: 404, body: { error: expect.stringContaining('serves the model "species-api", not "other-api"') } });

    // The deployment page's MLflow example, as it is shown (this server's origin, the route, a key, the example row), run by a shell.
    const d = (await server.client.deployments.show.query({ deploymentId: a.id })).deployment;
    const version = (await server.client.models.show.query({ modelId: d.model.id })).versions.find((v) => v.number === 1)!;
    const features = (await server.client.experiments.get.query({ id: version.experimentId })).results!.featureSchema!.features;
    const shown = await runToEnd("bash", ["-c", curlInvocationsExample(server.url, d.routes.invocations, keyA, exampleRow(features))]);
    expect(ZScoringAnswer.parse(JSON.parse(shown)).predictions).toHaveLength(1);
  });

  it("announces every move on the live event stream (pages follow without polling): stop and resume, in order", async () => {
    const seen: string[] = [];
    const abort = new AbortController();
    const res = await fetch(`${server.url}/api/events?topics=deployment:${a.id}`, { signal: abort.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const reading = (async () => {
      const decoder = new TextDecoder();
      let text = "";
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        text += decoder.decode(value, { stream: true });
        for (const m of text.matchAll(/event: deployment\.changed\ndata: (.*)\n/g)) seen.push((JSON.parse(m[1]!) as { state: string }).state);
        text = text.slice(text.lastIndexOf("\n\n") + 2);
      }
    })().catch(() => undefined);
    try {
      expect((await cliJson(server.url, ["deployments", "stop", "species-api"])).json).toMatchObject({ state: "stopped" });
      expect((await cliJson(server.url, ["deployments", "resume", "species-api"])).json).toMatchObject({ state: "ready" });
      await waitFor("the moves on the event stream", () => (seen.length >= 4 ? true : undefined), 10_000, 100);
      expect(seen).toEqual(["stopping", "stopped", "loading", "ready"]);
    } finally {
      abort.abort();
      await reading;
    }
  });

  it("refuses a revoked key; stop makes health say stopped and predict answer 503; resume serves again", async () => {
    const revoked = await cliJson(server.url, ["deployments", "keys", "revoke", "species-api", keyA.slice(0, 10)]);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect((await call(a.urls.health, keyA)).status).toBe(401);
    const fresh = (await cliJson(server.url, ["deployments", "keys", "create", "species-api"])).json.key as string;
    const stopped = await cliJson(server.url, ["deployments", "stop", "species-api"]);
    expect(stopped.json).toMatchObject({ state: "stopped" });
    expect(ZDeploymentHealth.parse((await call(a.urls.health, fresh)).body)).toMatchObject({ state: "stopped", mode: "on_demand", release: { number: 1 }, uptimeSeconds: null, serving: null });
    const refused = await call(a.urls.predict, fresh, { rows: [ROW] });
    expect(refused).toMatchObject({ status: 503, body: { code: "not_ready" } });
    // The protocols' health checks say so too; a request answers in its protocol's shape.
    expect(await call(`${server.url}/api/deployments/${a.id}/ping`, fresh)).toMatchObject({ status: 503, body: { error_code: "TEMPORARILY_UNAVAILABLE", reason: "not_ready" } });
    expect(await call(`${server.url}/api/deployments/${a.id}/v2/health/ready`, fresh)).toEqual({ status: 503, body: { ready: false } });
    expect(await call(`${server.url}/api/deployments/${a.id}/invocations`, fresh, { dataframe_records: [ROW] })).toMatchObject({ status: 503, body: { error_code: "TEMPORARILY_UNAVAILABLE" } });
    expect((await cliJson(server.url, ["deployments", "resume", "species-api"])).json).toMatchObject({ state: "ready" });
    expect((await call(a.urls.health, fresh)).body).toMatchObject({ state: "ready" });
  });

  it("records a switch and a rollback as new releases, and refuses a stale revision", async () => {
    const d = (await server.client.deployments.show.query({ deploymentId: a.id })).deployment;
    const switched = await server.client.deployments.switch.mutate({ deploymentId: a.id, expectedRevision: d.revision, version: 1, why: "same version, new release" });
    expect(switched.release).toMatchObject({ number: 2, kind: "switch" });
    await expect(server.client.deployments.stop.mutate({ deploymentId: a.id, expectedRevision: d.revision })).rejects.toThrow(/revision/);
    const back = await cliJson(server.url, ["deployments", "rollback", "species-api", "--to", "1", "--reason", "back to the first"]);
    expect(back.json).toMatchObject({ release: { number: 3, kind: "rollback", version: 1 } });
    const releases = (await server.client.deployments.show.query({ deploymentId: a.id })).releases;
    expect(releases.map((r) => `${r.number}:${r.kind}`)).toEqual(["3:rollback", "2:switch", "1:create"]);
  });

  it("serves a resident release from its own process: loading, then ready; predicts the same; stop ends the process", async () => {
    const made = await cliJson(server.url, ["deploy", `${MODEL}:1`, "--mode", "resident", "--name", "resident-api"]);
    expect(made.code, made.stderr).toBe(0);
    const r = ZMade.parse(made.json);
    expect(made.json).toMatchObject({ mode: "resident", release: { number: 1 } });
    const key = (await cliJson(server.url, ["deployments", "keys", "create", "resident-api"])).json.key as string;
    const ready = await waitFor("the resident release to load", async () => {
      const h = await call(r.urls.health, key);
      if (h.body.state === "failed") throw new Error(`resident deployment failed: ${String(h.body.reason)}`);
      return h.body.state === "ready" ? h.body : undefined;
    }, 240_000, 500);
    expect(ready).toMatchObject({ mode: "resident", release: { number: 1, version: 1 } });
    const answer = await call(r.urls.predict, key, { rows: [ROW, GENTOO] });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(ZDeploymentPredictResponse.parse(answer.body).predictions.map((p) => p.prediction)).toEqual(["Adelie", "Gentoo"]);

    // Its own document types rows by the model's features: every generated valid body is
    // predicted by the serving process (2xx), and nothing answers 5xx or outside the document.
    const own = await runSchemathesis({ baseUrl: server.url, token: key, documentPath: `/api/deployments/${r.id}/openapi.json`, maxExamples: 15, positiveAccepted: true });
    console.log(own.output.split("\n").filter((l) => /generated|Operations|Warning|mismatch/i.test(l)).join("\n"));
    expect(own.code, own.output).toBe(0);
    expect(own.output).toMatch(/Operations:\s+2 selected \/ 2 total/);
    expect(own.output).toMatch(/(\d{2,}) generated, \1 passed/);
    expect(own.output).not.toMatch(/Schema validation mismatch/i);

    // A switch under a steady stream of requests loses none: the old release answers until
    // the new one is ready, and a request that finds the old process gone is asked of the new.
    const statuses: number[] = [];
    let switching = true;
    const stream = (async () => {
      while (switching) statuses.push((await call(r.urls.predict, key, { rows: [ROW] })).status);
    })();
    const rev = (await server.client.deployments.show.query({ deploymentId: r.id })).deployment.revision;
    const switched = await server.client.deployments.switch.mutate({ deploymentId: r.id, expectedRevision: rev, version: 1, why: "a new release under load" });
    for (let i = 0; i < 5; i++) statuses.push((await call(r.urls.predict, key, { rows: [ROW] })).status);
    switching = false;
    await stream;
    expect(switched.release).toMatchObject({ number: 2 });
    expect(statuses.length).toBeGreaterThan(5);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);

    // kill -9 of the serving process: the reconcile loop sees its job end, says so, and
    // restarts it after a wait (restart-policy.ts); the fourth end within ten minutes is left failed.
    const killServing = async () => {
      const running = (await server.client.jobs.list.query({ limit: 100 })).find((j) => j.recipe === "serve-tabular" && j.state === "running")!;
      const receipt = JSON.parse(readFileSync(path.join(home.workerHome, "receipts", `${running.workerJobId}.json`), "utf8")) as { recipeProcess: { pid: number } };
      process.kill(receipt.recipeProcess.pid, "SIGKILL");
      return running.id;
    };
    const seen: string[] = [];
    const healthUntil = (what: string, ok: (h: DeploymentHealth) => boolean) =>
      waitFor(what, async () => {
        const h = ZDeploymentHealth.parse((await call(r.urls.health, key)).body);
        if (h.reason && seen.at(-1) !== h.reason) seen.push(h.reason);
        return ok(h) ? h : undefined;
      }, 60_000, 150);
    for (const attempt of [1, 2, 3]) {
      const killed = await killServing();
      const t0 = Date.now();
      await healthUntil(`restart ${attempt}`, (h) => h.state === "ready" && seen.some((s) => s.startsWith(`automatic restart ${attempt} of 3`)));
      console.log(`restart ${attempt}: ready again ${Date.now() - t0} ms after kill -9`);
      const again = await call(r.urls.predict, key, { rows: [ROW] });
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      const running = (await server.client.jobs.list.query({ limit: 100 })).find((j) => j.recipe === "serve-tabular" && j.state === "running")!;
      expect(running.id).not.toBe(killed);
    }
    expect(seen.filter((s) => /^The serving process ended: .*It restarts automatically in \d+ s \(restart \d of 3 within 10 minutes\)\.$/.test(s)).length).toBeGreaterThanOrEqual(1);
    await killServing();
    const gaveUp = await healthUntil("the deployment to give up", (h) => h.state === "failed" && /not restarted again/.test(h.reason ?? ""));
    expect(gaveUp.reason).toMatch(/^The serving process ended: .*restarted automatically 3 times within 10 minutes, so it is not restarted again\. .*Resume the deployment/);
    expect((await call(r.urls.predict, key, { rows: [ROW] })).status).toBe(503);

    // Resume starts a fresh process for the same release; stop ends it and waits for it.
    expect((await cliJson(server.url, ["deployments", "resume", "resident-api"])).json).toMatchObject({ state: "loading" });
    await waitFor("the resident release to load again", async () => ((await call(r.urls.health, key)).body.state === "ready" ? true : undefined), 240_000, 500);
    const stopped = await cliJson(server.url, ["deployments", "stop", "resident-api"]);
    expect(stopped.json).toMatchObject({ state: "stopped" });
    const jobs = await server.client.jobs.list.query({ limit: 100 });
    expect(jobs.filter((j) => j.recipe === "serve-tabular").map((j) => j.state).sort()).toEqual(["cancelled", "cancelled", "failed", "failed", "failed", "failed"]);
  });

  it("holds a resident release to its memory budget: too small fails saying so, too large or on demand is refused", async () => {
    expect((await cliJson(server.url, ["deploy", `${MODEL}:1`, "--mode", "resident", "--memory-gb", "4000"])).json.error?.code).toBe("memory_too_large");
    expect((await cliJson(server.url, ["deploy", `${MODEL}:1`, "--mode", "on-demand", "--memory-gb", "1"])).json.error?.code).toBe("memory_on_demand");
    const bad = await runCli(server.url, ["deploy", `${MODEL}:1`, "--memory-gb", "lots"]).done;
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--memory-gb is a number of GB above 0/);
    // A Python process with AutoGluon imported holds far more than 0.1 GB: its supervisor stops it.
    const made = await cliJson(server.url, ["deploy", `${MODEL}:1`, "--mode", "resident", "--memory-gb", "0.1", "--name", "tight-api"]);
    expect(made.code, made.stderr).toBe(0);
    const tight = ZMade.parse(made.json);
    const shown = await server.client.deployments.show.query({ deploymentId: tight.id });
    expect(shown.deployment.memory).toEqual({ gb: 0.1, isDefault: false });
    const failed = await waitFor("the tight deployment to fail on its budget", async () => {
      const d = (await server.client.deployments.show.query({ deploymentId: tight.id })).deployment;
      return d.state === "failed" ? d : undefined;
    }, 120_000, 250);
    expect(failed.reason).toMatch(/memory budget of 0\.1 GiB exceeded/);
    // Its automatic restart may move it on between the read and the stop: stop on the revision now current.
    await waitFor("the tight deployment's stop to be taken", async () => {
      const d = (await server.client.deployments.show.query({ deploymentId: tight.id })).deployment;
      return server.client.deployments.stop.mutate({ deploymentId: tight.id, expectedRevision: d.revision }).then(() => true, (err: Error) => (/revision/.test(err.message) ? undefined : Promise.reject(err)));
    }, 30_000, 200);
    await waitFor("the tight deployment to stop", async () => ((await server.client.deployments.show.query({ deploymentId: tight.id })).deployment.state === "stopped" ? true : undefined), 60_000, 250);
  });

  it("keeps a resident release loaded across kill -9 of the server: the restarted server answers from the same process", async () => {
    const made = await cliJson(server.url, ["deploy", `${MODEL}:1`, "--mode", "resident", "--name", "survivor-api"]);
    expect(made.code, made.stderr).toBe(0);
    const d = ZMade.parse(made.json);
    const key = (await cliJson(server.url, ["deployments", "keys", "create", "survivor-api"])).json.key as string;
    await waitFor("the resident release to load", async () => ((await call(d.urls.health, key)).body.state === "ready" ? true : undefined), 240_000, 500);
    const servingJobs = async () => (await server.client.jobs.list.query({ limit: 200 })).filter((j) => j.recipe === "serve-tabular" && j.state === "running");
    const [before] = await servingJobs();
    const pid = (JSON.parse(readFileSync(path.join(home.workerHome, "receipts", `${before!.workerJobId}.json`), "utf8")) as { recipeProcess: { pid: number } }).recipeProcess.pid;

    await server.kill9();
    server = await startTestServer({ home, env: { TRAINYARD_TRAINING_DIR: path.join(REPO, "training") }, port: Number(new URL(server.url).port) });
    const t0 = Date.now();
    const answer = await call(d.urls.predict, key, { rows: [GENTOO] });
    console.log(`first prediction after the restart: ${Date.now() - t0} ms`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(ZDeploymentPredictResponse.parse(answer.body).predictions[0]!.prediction).toBe("Gentoo");
    expect((await servingJobs()).map((j) => j.id)).toEqual([before!.id]);
    expect(() => process.kill(pid, 0)).not.toThrow();
    expect(await cliJson(server.url, ["deployments", "stop", "survivor-api"])).toMatchObject({ json: { state: "stopped" } });
  });

  it("unloads a resident release after its idle time: health says idle, and the next request loads it again and is answered", async () => {
    expect((await cliJson(server.url, ["deploy", `${MODEL}:1`, "--mode", "on-demand", "--idle-unload-minutes", "1"])).json.error?.code).toBe("idle_on_demand");
    expect((await runCli(server.url, ["deploy", `${MODEL}:1`, "--idle-unload-minutes", "soon"]).done).stderr).toMatch(/--idle-unload-minutes is a number of minutes above 0/);
    const since = new Date().toISOString();
    const made = await cliJson(server.url, ["deploy", `${MODEL}:1`, "--mode", "resident", "--idle-unload-minutes", "0.1", "--name", "idle-api"]);
    expect(made.json).toMatchObject({ idleUnloadMinutes: 0.1, state: "loading" });
    const d = ZMade.parse(made.json);
    const key = (await cliJson(server.url, ["deployments", "keys", "create", "idle-api"])).json.key as string;
    await waitFor("the idle-api release to load", async () => ((await call(d.urls.health, key)).body.state === "ready" ? true : undefined), 240_000, 300);
    // Health checks are no requests: they do not keep it loaded.
    const idle = await waitFor("idle-api to unload", async () => {
      const h = (await call(d.urls.health, key)).body;
      return h.state === "idle" ? h : undefined;
    }, 60_000, 500);
    expect(idle.reason).toMatch(/^Unloaded after 6 s without a request; the next request loads it again/);
    const jobs = async () => (await server.client.jobs.list.query({ limit: 200 })).filter((j) => j.recipe === "serve-tabular" && j.createdAt >= since);
    const [unloaded] = await jobs();
    expect(unloaded).toMatchObject({ state: "succeeded" });
    expect((await server.client.jobs.get.query({ id: unloaded!.id })).input).toMatchObject({ idleUnloadSeconds: 6 });
    const t0 = Date.now();
    const woken = await call(d.urls.predict, key, { rows: [GENTOO] });
    console.log(`a request to an idle deployment answered in ${Date.now() - t0} ms (the load included)`);
    expect(woken.status, JSON.stringify(woken.body)).toBe(200);
    expect(ZDeploymentPredictResponse.parse(woken.body).predictions[0]!.prediction).toBe("Gentoo");
    expect((await call(d.urls.health, key)).body).toMatchObject({ state: "ready" });
    expect((await jobs()).map((j) => j.state).sort()).toEqual(["running", "succeeded"]);
    expect(await cliJson(server.url, ["deployments", "stop", "idle-api"])).toMatchObject({ json: { state: "stopped" } });
  });

  it("switches without room for both releases by unloading first (503 switching meanwhile), and loads the old release again when the new one fails", async () => {
    const computer = (await server.client.targets.list.query())[0]!;
    const capacityGb = (await server.client.targets.get.query({ id: computer.id })).probe!.capacity.ramGb;
    const budget = Math.floor(capacityGb * 0.6 * 10) / 10;
    const made = await cliJson(server.url, ["deploy", `${MODEL}:1`, "--mode", "resident", "--memory-gb", String(budget), "--name", "big-api"]);
    expect(made.code, made.stderr).toBe(0);
    const d = ZMade.parse(made.json);
    const key = (await cliJson(server.url, ["deployments", "keys", "create", "big-api"])).json.key as string;
    await waitFor("the big-api release to load", async () => ((await call(d.urls.health, key)).body.state === "ready" ? true : undefined), 240_000, 300);
    const view = async () => (await server.client.deployments.show.query({ deploymentId: d.id })).deployment;
    expect((await view()).switchRoom).toMatchObject({ kind: "downtime", detail: expect.stringMatching(/no room for both releases .*requests answer 503/) });

    const answers: { status: number; code: unknown; retryAfter: string | null }[] = [];
    let going = true;
    const load = (async () => {
      while (going) {
        const r = await fetch(d.urls.predict, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify({ rows: [ROW] }) });
        answers.push({ status: r.status, code: ((await r.json()) as { code?: unknown }).code, retryAfter: r.headers.get("retry-after") });
      }
    })();
    const switched = await server.client.deployments.switch.mutate({ deploymentId: d.id, expectedRevision: (await view()).revision, version: 1, why: "a release that needs the memory" });
    going = false;
    await load;
    expect(switched).toMatchObject({ state: "ready", release: { number: 2 }, reason: expect.stringMatching(/unloaded first/) });
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused.length, JSON.stringify(answers)).toBeGreaterThan(0);
    expect(refused.every((a) => a.status === 503 && a.code === "switching" && a.retryAfter === "5"), JSON.stringify(refused)).toBe(true);
    expect((await call(d.urls.predict, key, { rows: [ROW] })).body).toMatchObject({ release: { number: 2 } });

    // A candidate whose process dies while loading: the old release is loaded again and serves.
    const running = async () => (await server.client.jobs.list.query({ limit: 200 })).filter((j) => j.recipe === "serve-tabular" && j.state === "running");
    const before = new Set((await running()).map((j) => j.id));
    const pending = server.client.deployments.switch.mutate({ deploymentId: d.id, expectedRevision: (await view()).revision, version: 1, why: "a release that will not load" });
    await waitFor("the candidate's process to start loading", async () => {
      const candidate = (await running()).find((j) => !before.has(j.id) && j.workerJobId);
      const receipt = candidate ? (JSON.parse(readFileSync(path.join(home.workerHome, "receipts", `${candidate.workerJobId}.json`), "utf8")) as { recipeProcess?: { pid: number } }) : null;
      if (!receipt?.recipeProcess) return undefined;
      process.kill(receipt.recipeProcess.pid, "SIGKILL");
      return true;
    }, 60_000, 50);
    const after = await pending;
    expect(after).toMatchObject({ state: "ready", release: { number: 2 }, reason: expect.stringMatching(/^Release 3 did not load \(its serving process ended: .*\); the previous release was loaded again and serves\.$/) });
    expect((await call(d.urls.predict, key, { rows: [GENTOO] })).body).toMatchObject({ release: { number: 2 } });
    expect(await cliJson(server.url, ["deployments", "stop", "big-api"])).toMatchObject({ json: { state: "stopped" } });
  });
});
