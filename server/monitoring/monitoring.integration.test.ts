/**
 * A monitor on a real resident penguins deployment (real server, worker, data and tabular
 * recipes): its reference is the version's training partition binned by the data.reference
 * job; rows drawn from the data give no alert; the same rows with two columns shifted alert
 * on those two columns only, after two windows; 20 requests are "not enough traffic";
 * refused requests count as failures; a restart of the server loses no flushed count and
 * counts none twice; a paused monitor counts nothing; a sentinel category sent in requests
 * is nowhere in the data home afterwards (database, logs, job folders). A health policy
 * rolls a failing release back to the approved one, once, with the breach in the release's
 * why; errors in a row fail a release mid-window, but not within the cooldown of the last
 * automatic action.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { ZMonitorView } from "@/contracts/monitoring/monitoring";
import { runCli } from "@/server/testing/cli-process";
import { makeTestHome, REPO, startTestServer, waitFor, type TestHome, type TestServer } from "@/server/testing/server-harness";
import { call, cliJson, filesContaining, PENGUINS, trainedPenguins, ZMade } from "@/server/deployments/test-support";
import { ONE_LIGHTGBM } from "@/server/testing/one-model";

const MODEL = "Penguin species";
const ENV = { TRAINYARD_TRAINING_DIR: path.join(REPO, "training") };
const NUMERIC = new Set(["bill_length_mm", "bill_depth_mm", "flipper_length_mm", "body_mass_g", "year"]);

type Row = Record<string, string | number | null>;

/** The penguins rows as a client sends them (NA → null, numbers as numbers, no target). */
function penguinRows(): Row[] {
  const [header, ...lines] = readFileSync(PENGUINS, "utf8").trim().split("\n");
  const names = header!.split(",");
  return lines.map((line) => {
    const cells = line.split(",");
    return Object.fromEntries(names.flatMap((n, i) => (n === "species" ? [] : [[n, cells[i] === "NA" ? null : NUMERIC.has(n) ? Number(cells[i]) : cells[i]!]])));
  });
}

/** A small seeded generator, so which rows are drawn (and so every verdict) is the same on every run. */
function draw(rows: Row[], n: number, seed: number): Row[] {
  let s = seed;
  const next = () => ((s = (s * 1103515245 + 12345) % 2 ** 31), s / 2 ** 31);
  return Array.from({ length: n }, () => rows[Math.floor(next() * rows.length)]!);
}

const shifted = (r: Row): Row => ({
  ...r,
  bill_length_mm: r.bill_length_mm === null ? null : (r.bill_length_mm as number) + 12,
  body_mass_g: r.body_mass_g === null ? null : (r.body_mass_g as number) * 1.6,
});

const ZCheck = z.object({
  windows: z.array(z.object({ seq: z.number(), n: z.number(), verdict: z.enum(["ok", "drift", "not_enough_traffic"]), driftedColumns: z.array(z.string()), failureRate: z.number().nullable(), p95Ms: z.number().nullable() })),
});

describe("a monitor on a resident tabular deployment", { timeout: 900_000 }, () => {
  let server: TestServer;
  let home: TestHome;
  let predictUrl = "";
  let key = "";
  let monitorId = "";
  let projectId = "";
  let datasetId = "";
  const all = penguinRows();

  /** One request per row, one after another (so windows close at the same rows on every run). */
  async function send(rows: Row[]): Promise<void> {
    for (const row of rows) {
      const r = await call(predictUrl, key, { rows: [row] });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
  }
  const show = async () => ZMonitorView.parse(await server.client.monitors.show.query({ monitorId }));
  const check = async () => {
    const r = await cliJson(server.url, ["monitors", "check", monitorId]);
    expect(r.code, r.stderr).toBe(0);
    return ZCheck.parse(r.json).windows;
  };
  /** Waits until every closed window has its verdict (the reconciler judges them). */
  const judged = () => waitFor("the closed windows to be judged", async () => {
    const m = await show();
    return m.windows.every((w) => !w.closedAt || w.verdict) ? m : undefined;
  }, 60_000, 300);

  beforeAll(async () => {
    home = makeTestHome();
    server = await startTestServer({ home, env: ENV });
    projectId = (await server.client.projects.create.mutate({ name: "Default" })).id;
    const trained = await trainedPenguins(server, projectId);
    datasetId = trained.datasetId;
    const experimentId = trained.experimentId;
    await server.client.models.register.mutate({ experimentId, newModelName: MODEL });
    const made = await cliJson(server.url, ["deploy", `${MODEL}:1`, "--mode", "resident", "--name", "watched"]);
    expect(made.code, made.stderr).toBe(0);
    predictUrl = ZMade.parse(made.json).urls.predict;
    key = (await cliJson(server.url, ["deployments", "keys", "create", "watched"])).json.key as string;
    await waitFor("the resident release to load", async () => ((await call(predictUrl.replace(/predict$/, "health"), key)).body.state === "ready" ? true : undefined), 240_000, 500);
  });
  afterAll(() => server?.stop());

  it("is made from the CLI; its reference bins the version's training partition, column by column", async () => {
    expect((await cliJson(server.url, ["monitors", "create", "nowhere"])).json.error?.code).toBe("not_found");
    expect((await runCli(server.url, ["monitors", "create", "watched", "--window-requests", "many"]).done).stderr).toMatch(/--window-requests must be a whole number/);
    const made = await cliJson(server.url, ["monitors", "create", "watched", "--window-requests", "100"]);
    expect(made.code, made.stderr).toBe(0);
    expect(Object.keys(made.json)).toEqual(["id"]);
    monitorId = made.json.id as string;
    // Made again for the same release: the same monitor.
    expect((await cliJson(server.url, ["monitors", "create", "watched"])).json).toEqual({ id: monitorId });
    const m = await waitFor("the reference to be made", async () => {
      const v = await show();
      return v.state !== "preparing" ? v : undefined;
    }, 300_000, 500);
    expect(m, m.reason ?? "").toMatchObject({ state: "watching", windowRequests: 100, minRows: 50, alertAfter: 2, alertingColumns: [], windows: [] });
    const ref = await cliJson(server.url, ["monitors", "reference", monitorId]);
    const reference = z.object({ reference: z.object({ rows: z.number(), columns: z.array(z.object({ name: z.string(), kind: z.string(), counts: z.array(z.number()) })) }) }).parse(ref.json).reference;
    expect(reference.columns.map((c) => `${c.name}:${c.kind}`).sort()).toEqual(
      ["bill_depth_mm:numeric", "bill_length_mm:numeric", "body_mass_g:numeric", "flipper_length_mm:numeric", "island:categorical", "sex:categorical", "year:numeric"].sort(),
    );
    // The training partition only (about 70 % of 344 rows), every row in one bin of each column.
    expect(reference.rows).toBeGreaterThan(200);
    expect(reference.rows).toBeLessThan(300);
    for (const c of reference.columns) expect(c.counts.reduce((a, b) => a + b, 0), c.name).toBe(reference.rows);
  });

  it("300 requests drawn from the data: three windows of 100, no alert", async () => {
    await send(draw(all, 300, 7));
    const windows = await check();
    expect(windows.map((w) => w.n)).toEqual([100, 100, 100, 0]);
    expect(windows.at(-1)).toMatchObject({ verdict: "not_enough_traffic" });
    for (const w of windows.slice(0, 3)) expect(w.failureRate).toBe(0);
    // A same-distribution window is called drifted at most 1 time in 100 by chance; the seeded draw is the same each run.
    expect(windows.slice(0, 3).filter((w) => w.verdict === "drift").length).toBeLessThanOrEqual(1);
    expect((await show()).alertingColumns).toEqual([]);
  });

  it("the same kind of rows with two columns shifted: those two, and only those, alert after two windows", async () => {
    await send(draw(all, 100, 11).map(shifted));
    const first = await judged();
    expect(first.windows.at(-1)).toMatchObject({ n: 100, verdict: "drift" });
    expect(first.windows.at(-1)!.driftedColumns.sort()).toEqual(["bill_length_mm", "body_mass_g"]);
    expect(first.alertingColumns).toEqual([]);
    await send(draw(all, 100, 13).map(shifted));
    const second = await judged();
    expect(second.windows.at(-1)!.driftedColumns.sort()).toEqual(["bill_length_mm", "body_mass_g"]);
    expect(second.alertingColumns.sort()).toEqual(["bill_length_mm", "body_mass_g"]);
    const column = second.windows.at(-1)!.columns.find((c) => c.name === "bill_length_mm")!;
    expect(column.js).toBeGreaterThan(column.threshold);
    const text = await runCli(server.url, ["monitors", "show", monitorId]).done;
    expect(text.stdout).toMatch(/ALERT: inputs changed in (bill_length_mm, body_mass_g|body_mass_g, bill_length_mm)/);
    // One alert raised; a third drifted window still alerts, but raises none within the cooldown (60 min).
    expect(second.alerts.map((a) => [a.windowSeq, [...a.columns].sort()])).toEqual([[second.windows.at(-1)!.seq, ["bill_length_mm", "body_mass_g"]]]);
    await send(draw(all, 100, 53).map(shifted));
    const third = await judged();
    expect(third.alertingColumns.sort()).toEqual(["bill_length_mm", "body_mass_g"]);
    expect(third.alerts).toHaveLength(1);
  });

  it("20 requests and 5 refused ones: not enough traffic, and a failure rate of 5 in 25", async () => {
    await send(draw(all, 20, 17));
    for (let i = 0; i < 5; i++) expect((await call(predictUrl, key, { rows: [{ island: "Biscoe", bill_length_mm: "long" }] })).status).toBe(400);
    const last = (await check()).at(-1)!;
    expect(last).toMatchObject({ n: 25, verdict: "not_enough_traffic", driftedColumns: [] });
    expect(last.failureRate).toBeCloseTo(0.2, 6);
    expect(last.p95Ms).not.toBeNull();
  });

  it("a paused monitor counts nothing; resumed, it counts again", async () => {
    expect((await cliJson(server.url, ["monitors", "pause", monitorId])).json).toMatchObject({ state: "paused" });
    await send(draw(all, 10, 19));
    expect((await show()).windows.every((w) => w.closedAt)).toBe(true);
    expect((await cliJson(server.url, ["monitors", "resume", monitorId])).json).toMatchObject({ state: "watching" });
    await send(draw(all, 10, 23));
    const open = (await show()).windows.at(-1)!;
    expect(open).toMatchObject({ closedAt: null, n: 10 });
  });

  it("a restart of the server keeps every flushed count and counts none twice", async () => {
    await send(draw(all, 30, 29));
    // A read writes the counts taken so far; kill -9 after it loses nothing of them.
    expect((await show()).windows.at(-1)).toMatchObject({ closedAt: null, n: 40 });
    await server.kill9();
    server = await startTestServer({ home, env: ENV, port: Number(new URL(server.url).port) });
    await send(draw(all, 5, 31));
    expect((await check()).at(-1)).toMatchObject({ n: 45 });
  });

  it("keeps no value of a request: a sentinel category is nowhere in the data home", async () => {
    const sentinel = `sentinel-${randomUUID()}`;
    await send(draw(all, 5, 37).map((r) => ({ ...r, island: sentinel })));
    const last = (await check()).at(-1)!;
    expect(last.n).toBe(5);
    const islands = (await show()).windows.at(-1)!.histograms.island!;
    const reference = (await server.client.monitors.reference.query({ monitorId })).reference!;
    const island = reference.columns.find((c) => c.name === "island")!;
    // All five fell in "other" (the bin after the training categories).
    expect(island.kind === "categorical" && islands[island.categories.length]).toBe(5);
    const port = Number(new URL(server.url).port);
    await server.stop();
    expect(filesContaining(home.home, sentinel)).toEqual([]);
    server = await startTestServer({ home, env: ENV, port });
  });

  it("answers agents through get_monitoring-shaped reads and refuses unknown monitors", async () => {
    expect((await cliJson(server.url, ["monitors", "show", "no-such-monitor"])).json.error?.code).toBe("not_found");
    const listed = await cliJson(server.url, ["monitors", "list", "watched"]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(z.array(ZMonitorView).parse(listed.json).map((m) => m.id)).toEqual([monitorId]);
  });

  it("a reviewed window of real traffic becomes the reference: the shift it holds is no longer drift", async () => {
    const m = await show();
    const shiftedWindow = m.windows.filter((w) => w.driftedColumns.includes("bill_length_mm")).at(-1)!;
    const small = m.windows.filter((w) => w.closedAt && w.rows > 0 && w.rows < m.minRows).at(-1)!;
    expect((await cliJson(server.url, ["monitors", "reference", monitorId, "--accept-window", String(small.seq)])).json.error?.code).toBe("too_few_rows");
    const accepted = await cliJson(server.url, ["monitors", "reference", monitorId, "--accept-window", String(shiftedWindow.seq)]);
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.json).toMatchObject({ referenceWindow: shiftedWindow.seq, reference: { rows: 100 } });
    await send(draw(all, 100, 43).map(shifted));
    const after = await judged();
    const last = after.windows.at(-1)!;
    expect(last).toMatchObject({ n: 100 });
    expect(last.driftedColumns).not.toContain("bill_length_mm");
    expect(last.driftedColumns).not.toContain("body_mass_g");
    expect(after.referenceWindow).toBe(shiftedWindow.seq);
  });

  const releasesOf = async () => (await server.client.deployments.show.query({ deploymentId: (await server.client.deployments.list.query({ projectId }))[0]!.id })).releases;
  const bad = { rows: [{ island: "Biscoe", bill_length_mm: "long" }] };
  const watchRelease = async (args: string[]) => {
    const made = await cliJson(server.url, ["monitors", "create", "watched", ...args]);
    expect(made.code, made.stderr).toBe(0);
    const id = made.json.id as string;
    await waitFor("the new monitor's reference", async () => ((await server.client.monitors.show.query({ monitorId: id })).state === "watching" ? true : undefined), 300_000, 500);
    return id;
  };

  it("a health policy rolls a failing release back to the approved one, once, with the breach in the release's why", async () => {
    const exp = await server.client.experiments.start.mutate({
      opId: randomUUID(),
      projectId,
      datasetId,
      settings: { target: "species", task: "multiclass", metric: "accuracy", mode: "quick", maxMinutes: 2, hyperparameters: ONE_LIGHTGBM },
    });
    await waitFor("the second training", async () => ((await server.client.experiments.get.query({ id: exp.id })).status === "succeeded" ? true : undefined), 400_000, 1000);
    const model = (await server.client.models.list.query({ projectId }))[0]!;
    await server.client.models.register.mutate({ experimentId: exp.id, modelId: model.id });
    const switched = await cliJson(server.url, ["deployments", "switch", "watched", "2", "--reason", "try version 2"]);
    expect(switched.code, switched.stderr).toBe(0);
    await waitFor("release 2 to serve", async () => ((await call(predictUrl, key, { rows: [all[0]] })).body.release as { number: number } | undefined)?.number === 2 || undefined, 240_000, 500);
    const watching2 = await watchRelease(["--window-requests", "20"]);
    expect((await cliJson(server.url, ["monitors", "policy", watching2, "--rollback-to", "9"])).json.error?.code).toBe("no_such_release");
    const armed = await cliJson(server.url, ["monitors", "policy", watching2, "--max-failure-rate", "0.2", "--min-requests", "10"]);
    expect(armed.code, armed.stderr).toBe(0);
    expect(armed.json).toMatchObject({ policy: { state: "armed", limits: { rollbackTo: 1, maxFailureRate: 0.2, consecutiveErrors: 4 } } });

    // Every other request refused: no run of errors, but half of the window fails.
    for (const row of draw(all, 10, 41)) {
      await call(predictUrl, key, { rows: [row] });
      expect((await call(predictUrl, key, bad)).status).toBe(400);
    }
    const rolled = await waitFor("the policy's rollback", async () => {
      const rs = await releasesOf();
      return rs.length === 3 ? rs : undefined;
    }, 60_000, 300);
    expect(rolled[0]).toMatchObject({ number: 3, version: 1, kind: "rollback", actor: { kind: "policy" } });
    expect(rolled[0]!.why).toBe("health policy: window 1: 50.0% of 20 requests failed (limit 20.0%) (back to release 1)");
    // Fired once the rollback's release serves (a resident release loads first).
    const fired = await waitFor("the policy to say it fired", async () => {
      const m = ZMonitorView.parse(await server.client.monitors.show.query({ monitorId: watching2 }));
      return m.policy?.state === "fired" ? m : undefined;
    }, 120_000, 300);
    expect(fired.policy?.reason).toMatch(/^rolled back to release 1: window 1/);
    await waitFor("release 3 to serve", async () => ((await call(predictUrl, key, { rows: [all[0]] })).body.release as { number: number } | undefined)?.number === 3 || undefined, 120_000, 300);
    // Once: more failures (now on release 3, which this policy does not watch) change nothing.
    for (let i = 0; i < 6; i++) await call(predictUrl, key, bad);
    await new Promise((r) => setTimeout(r, 4000));
    expect((await releasesOf()).length).toBe(3);
    expect((await cliJson(server.url, ["monitors", "policy", watching2])).json.error?.code).toBe("policy_fired");
    expect(ZMonitorView.parse(await server.client.monitors.show.query({ monitorId: watching2 })).release.number).toBe(2);
  });

  it("errors in a row fail a release mid-window, but not within the cooldown of the last automatic action", async () => {
    const watching3 = await watchRelease([]);
    const armed = await cliJson(server.url, ["monitors", "policy", watching3, "--rollback-to", "2"]);
    expect(armed.json).toMatchObject({ policy: { state: "armed", limits: { rollbackTo: 2, consecutiveErrors: 4, cooldownMinutes: 30 } } });
    for (let i = 0; i < 4; i++) await call(predictUrl, key, bad);
    // The run of four closed the window at once; the last automatic action was seconds ago.
    const closed = await waitFor("the window closed by the run of errors", async () => {
      const w = (await server.client.monitors.show.query({ monitorId: watching3 })).windows[0];
      return w?.closedAt ? w : undefined;
    }, 30_000, 300);
    expect(closed).toMatchObject({ n: 4, errorStreak: 4 });
    await new Promise((r) => setTimeout(r, 4000));
    expect((await releasesOf()).length).toBe(3);
    // The owner lifts the cooldown: the same breach rolls back now.
    expect((await cliJson(server.url, ["monitors", "policy", watching3, "--rollback-to", "2", "--cooldown-minutes", "0"])).code).toBe(0);
    const rolled = await waitFor("the second rollback", async () => {
      const rs = await releasesOf();
      return rs.length === 4 ? rs : undefined;
    }, 60_000, 300);
    expect(rolled[0]).toMatchObject({ number: 4, version: 2, kind: "rollback", actor: { kind: "policy" } });
    expect(rolled[0]!.why).toBe("health policy: window 1: 4 requests in a row failed (limit 4) (back to release 2)");
  });

  it("a window by time closes once it is that old, whatever its count", async () => {
    await waitFor("release 4 to serve", async () => ((await call(predictUrl, key, { rows: [all[0]] })).body.release as { number: number } | undefined)?.number === 4 || undefined, 120_000, 300);
    expect((await runCli(server.url, ["monitors", "create", "watched", "--window-minutes", "soon"]).done).stderr).toMatch(/--window-minutes is a number of minutes above 0/);
    const timed = await watchRelease(["--window-requests", "1000", "--window-minutes", "0.05"]);
    await send(draw(all, 5, 47));
    const closed = await waitFor("the window to close by time", async () => {
      const w = (await server.client.monitors.show.query({ monitorId: timed })).windows[0];
      return w?.closedAt && w.verdict ? w : undefined;
    }, 30_000, 300);
    expect(closed).toMatchObject({ seq: 1, verdict: "not_enough_traffic" });
    expect(closed.n).toBeGreaterThanOrEqual(5);
    expect(Date.parse(closed.closedAt!) - Date.parse(closed.openedAt)).toBeGreaterThanOrEqual(3000);
  });

  it("a killed serving process: its refusals while it restarts count as failures, and the policy rolls back once it can", async () => {
    const timed = (await server.client.monitors.list.query({ deploymentId: (await server.client.deployments.list.query({ projectId }))[0]!.id })).at(-1)!;
    expect(timed.release.number).toBe(4);
    expect((await cliJson(server.url, ["monitors", "policy", timed.id, "--rollback-to", "3", "--cooldown-minutes", "0"])).json).toMatchObject({ policy: { state: "armed" } });
    const [serving] = (await server.client.jobs.list.query({ limit: 200 })).filter((j) => j.recipe === "serve-tabular" && j.state === "running");
    const receipt = z.object({ recipeProcess: z.object({ pid: z.number() }) }).parse(JSON.parse(readFileSync(path.join(home.workerHome, "receipts", `${serving!.workerJobId}.json`), "utf8")));
    process.kill(receipt.recipeProcess.pid, "SIGKILL");
    // Requests go on meanwhile: refused while it is failed and restarting (not_ready), then answered again.
    const rolled = await waitFor("the policy's rollback after the kill", async () => {
      await call(predictUrl, key, { rows: [all[1]] });
      const rs = await releasesOf();
      return rs.length === 5 ? rs : undefined;
    }, 180_000, 300);
    expect(rolled[0]).toMatchObject({ number: 5, version: 1, kind: "rollback", actor: { kind: "policy" } });
    expect(rolled[0]!.why).toMatch(/^health policy: window \d+: \d+ requests in a row failed \(limit 4\) \(back to release 3\)$/);
    const errors = (await server.client.monitors.show.query({ monitorId: timed.id })).windows.flatMap((w) => Object.keys(w.errors));
    expect(errors).toContain("not_ready");
  });
});
