/**
 * The model registry through the real server, worker and recipes on real data
 * (penguins): three real trainings (two with the same evaluation contract, one scored on
 * another metric) registered as versions; promotion behind the gate (acknowledgement for
 * a regression or an incomparable pair, CONFLICT for a stale revision and for the loser of
 * two concurrent promotions); rollback to the exact previous version; a damaged export
 * restored by hash or refused; a server killed with SIGKILL in the middle of a promotion
 * leaves the old selection and no event; the bounds on models and export bytes; the CLI
 * end to end.
 */
import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { TRPCClientError } from "@trpc/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "@/server/testing/cli-process";
import { ONE_LIGHTGBM } from "@/server/testing/one-model";
import { makeTestHome, REPO, startTestServer, waitFor, type TestHome, type TestServer } from "@/server/testing/server-harness";
import { upload, waitForProfile } from "@/server/datasets/test-support";
import { copyVersionUpTo } from "./bound-copies";
import { refusal } from "./registry-test-support";

const PENGUINS = path.join(REPO, "tests/fixtures/tabular/penguins.csv");
const REAL_TRAINING = { TRAINYARD_TRAINING_DIR: path.join(REPO, "training") };
const MODEL = "Species classifier";

const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

function filesNamed(dir: string, name: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? filesNamed(full, name) : e.name === name ? [full] : [];
  });
}

async function cliJson(url: string, args: string[]) {
  const r = await runCli(url, [...args, "--json"]).done;
  return { code: r.code, json: JSON.parse(r.stdout) as Record<string, unknown> & { error?: { code: string; message: string } }, stderr: r.stderr };
}

describe("the model registry", { timeout: 900_000 }, () => {
  let home: TestHome;
  let server: TestServer;
  let projectId: string;
  /** Experiments: a and b share the evaluation contract (accuracy); c is scored on balanced accuracy. */
  const exp: Record<"a" | "b" | "c", string> = { a: "", b: "", c: "" };
  let modelId: string;

  // The three trainings every test reads, started together once: a and b on accuracy, c on balanced accuracy.
  beforeAll(async () => {
    home = makeTestHome();
    server = await startTestServer({ home, env: REAL_TRAINING });
    // "Default": the project the CLI commands below name when given no --project.
    projectId = (await server.client.projects.create.mutate({ name: "Default" })).id;
    const uploaded = await upload(server, projectId, "penguins.csv", readFileSync(PENGUINS));
    expect(uploaded.status).toBe(201);
    const datasetId = uploaded.body.datasetId!;
    expect((await waitForProfile(server, datasetId)).status).toBe("ready");
    const start = (metric: "accuracy" | "balanced_accuracy") =>
      server.client.experiments.start.mutate({
        opId: randomUUID(),
        projectId,
        datasetId,
        settings: { target: "species", task: "multiclass", metric, mode: "quick", maxMinutes: 4, hyperparameters: ONE_LIGHTGBM },
      });
    const [a, b, c] = await Promise.all([start("accuracy"), start("accuracy"), start("balanced_accuracy")]);
    Object.assign(exp, { a: a.id, b: b.id, c: c.id });
    for (const id of [exp.a, exp.b, exp.c]) {
      const done = await waitFor(`experiment ${id} to end`, async () => {
        const d = await server.client.experiments.get.query({ id });
        return d.status !== "running" ? d : undefined;
      }, 600_000, 1000);
      expect(done.status, `${done.status}: ${done.note}`).toBe("succeeded");
    }
  });
  afterAll(() => server?.stop());

  it("registers two trainings as versions 1 and 2 of one model from the CLI; the same experiment again is the same version", async () => {
    const one = await cliJson(server.url, ["models", "register", "--experiment", exp.a, "--model", MODEL]);
    expect(one.code, one.stderr).toBe(0);
    expect(one.json).toMatchObject({ name: MODEL, revision: 1, selected: null, aliases: [], created: true, version: { number: 1, experimentId: exp.a, status: "registered" } });
    modelId = one.json.id as string;
    // Another spelling of the name is the same model.
    const two = await cliJson(server.url, ["models", "register", "--experiment", exp.b, "--model", "species CLASSIFIER"]);
    expect(two.json).toMatchObject({ id: modelId, created: true, version: { number: 2, experimentId: exp.b } });
    const again = await cliJson(server.url, ["models", "register", "--experiment", exp.a, "--model", MODEL]);
    expect(again.json).toMatchObject({ id: modelId, created: false, version: { number: 1 } });
    const shown = await server.client.models.show.query({ modelId });
    expect(shown.versions.map((v) => v.number)).toEqual([2, 1]);
    const v1 = shown.versions.find((v) => v.number === 1)!;
    const a = await server.client.experiments.get.query({ id: exp.a });
    expect(v1.exportSha256).toBe(a.exportSha256);
    expect(sha256(path.join(home.home, "artifacts", v1.exportSha256, "export.tar.gz"))).toBe(v1.exportSha256);
    expect(v1.identity).toMatchObject({ recipe: "tabular" });
    expect(v1.evidence).toMatchObject({ kind: "tabular", receipt: { hashes: { exportSha256: v1.modelSha256 } } });
    expect(v1.baseModel).toBeNull();
  });

  it("refuses a taken, empty or over-long name and an experiment that did not succeed, changing nothing", async () => {
    expect(await refusal(server.client.models.register.mutate({ experimentId: exp.c, newModelName: "  SPECIES classifier " }))).toMatchObject({ code: "CONFLICT", reason: "name_taken" });
    expect((await refusal(server.client.models.register.mutate({ experimentId: exp.c, newModelName: "" }))).code).toBe("BAD_REQUEST");
    expect((await refusal(server.client.models.register.mutate({ experimentId: exp.c, newModelName: "x".repeat(101) }))).code).toBe("BAD_REQUEST");
    const datasetId = (await server.client.datasets.list.query({ projectId }))[0]!.id;
    const cancelled = await server.client.experiments.start.mutate({
      opId: randomUUID(),
      projectId,
      datasetId,
      settings: { target: "species", task: "multiclass", metric: "accuracy", mode: "quick", maxMinutes: 4 },
    });
    await server.client.experiments.cancel.mutate({ id: cancelled.id });
    await waitFor("the experiment to be cancelled", async () => (await server.client.experiments.get.query({ id: cancelled.id })).status === "cancelled", 120_000, 500);
    const r = await refusal(server.client.models.register.mutate({ experimentId: cancelled.id, modelId }));
    expect(r).toMatchObject({ code: "BAD_REQUEST", reason: "experiment_not_succeeded" });
    expect(r.message).toContain("cancelled");
    expect((await server.client.models.list.query({ projectId })).map((m) => [m.name, m.versionCount])).toEqual([[MODEL, 2]]);
  });

  let hi = 0;
  let lo = 0;
  it("promotes the first version without a comparison, from the CLI, recording who and why", async () => {
    const shown = await server.client.models.show.query({ modelId });
    const [v1, v2] = [1, 2].map((n) => shown.versions.find((v) => v.number === n)!);
    [hi, lo] = v1!.primaryValue >= v2!.primaryValue ? [1, 2] : [2, 1];
    const r = await cliJson(server.url, ["models", "promote", MODEL, String(hi), "--reason", "first release", "--expected-revision", "1"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({
      id: modelId,
      revision: 2,
      selected: { number: hi },
      aliases: [{ name: "selected", version: hi }],
      event: { kind: "promote", alias: "selected", from: null, to: { number: hi }, reason: "first release", actor: { kind: "open" }, acknowledgedRegression: false, revision: 2 },
      decision: { verdict: "first" },
    });
  });

  it("needs an acknowledgement to promote a comparable version that is not better, and records it", async () => {
    const refused = await refusal(server.client.models.promote.mutate({ modelId, version: lo, reason: "try", expectedRevision: 2 }));
    expect(refused).toMatchObject({ code: "CONFLICT", reason: "needs_acknowledgement" });
    expect(refused.details).toMatchObject({ decision: { verdict: "needs_acknowledgement", why: "not_better", comparability: { comparable: true } } });
    const unchanged = await server.client.models.show.query({ modelId });
    expect([unchanged.model.revision, unchanged.model.selected?.number, unchanged.history.length]).toEqual([2, hi, 1]);
    const r = await server.client.models.promote.mutate({ modelId, version: lo, reason: "I accept no gain on accuracy", acceptRegression: true, expectedRevision: 2 });
    expect(r.model).toMatchObject({ revision: 3, selected: { number: lo } });
    expect(r.event).toMatchObject({ from: { number: hi }, to: { number: lo }, acknowledgedRegression: true, reason: "I accept no gain on accuracy" });
    expect(r.event!.evidence).toMatchObject({ decision: { verdict: "needs_acknowledgement" }, candidate: { version: lo }, previous: { version: hi } });
  });

  it("refuses a stale revision with CONFLICT and the refreshed comparison, changing nothing", async () => {
    const r = await refusal(server.client.models.promote.mutate({ modelId, version: hi, reason: "from an old page", acceptRegression: true, expectedRevision: 2 }));
    expect(r).toMatchObject({ code: "CONFLICT", reason: "stale_revision" });
    expect(r.details).toMatchObject({ model: { revision: 3, selected: { number: lo } }, decision: { verdict: expect.any(String) } });
    const cli = await cliJson(server.url, ["models", "promote", MODEL, String(hi), "--reason", "old", "--accept-regression", "--expected-revision", "2"]);
    expect(cli.code).toBe(1);
    expect(cli.json.error).toMatchObject({ code: "stale_revision" });
    expect((await server.client.models.history.query({ modelId })).length).toBe(2);
  });

  it("lets exactly one of two concurrent promotions win; the other gets CONFLICT", async () => {
    const promote = (reason: string) => server.client.models.promote.mutate({ modelId, version: hi, reason, acceptRegression: true, expectedRevision: 3 });
    const results = await Promise.allSettled([promote("click one"), promote("click two")]);
    const won = results.filter((r) => r.status === "fulfilled");
    const lost = results.filter((r) => r.status === "rejected");
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(((lost[0] as PromiseRejectedResult).reason as TRPCClientError<never>).data).toMatchObject({ code: "CONFLICT", details: { code: "stale_revision" } });
    const shown = await server.client.models.show.query({ modelId });
    expect([shown.model.revision, shown.model.selected?.number, shown.history.length]).toEqual([4, hi, 3]);
  });

  it("rolls back to the exact previously selected version, and refuses a version that does not exist", async () => {
    const before = await server.client.models.show.query({ modelId });
    const previous = before.history[0]!.from!;
    const r = await cliJson(server.url, ["models", "rollback", MODEL, "--reason", "the new one misbehaves"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ revision: 5, selected: { id: previous.id, number: previous.number }, event: { kind: "rollback", from: { number: hi }, to: { id: previous.id }, reason: "the new one misbehaves" } });
    expect((await refusal(server.client.models.rollback.mutate({ modelId, to: 99, reason: "x" }))).code).toBe("NOT_FOUND");
    const history = await cliJson(server.url, ["models", "history", MODEL]);
    expect((history.json as unknown as { kind: string }[]).map((e) => e.kind)).toEqual(["rollback", "promote", "promote", "promote"]);
  });

  it("needs an acknowledgement for an incomparable pair, says which contract fields differ, and will not roll back to a never-selected version", async () => {
    const reg = await server.client.models.register.mutate({ experimentId: exp.c, modelId });
    expect(reg.version.number).toBe(3);
    expect(await refusal(server.client.models.rollback.mutate({ modelId, to: 3, reason: "x" }))).toMatchObject({ code: "BAD_REQUEST", reason: "never_selected" });
    const now = await server.client.models.show.query({ modelId });
    const refused = await refusal(server.client.models.promote.mutate({ modelId, version: 3, reason: "better?", expectedRevision: now.model.revision }));
    expect(refused).toMatchObject({ code: "CONFLICT", reason: "needs_acknowledgement", details: { decision: { why: "not_comparable" } } });
    expect(refused.message).toContain("metric");
    const compared = await cliJson(server.url, ["models", "compare", MODEL, "1", "3"]);
    expect(compared.json).toMatchObject({ comparability: { comparable: false, differences: [{ field: "primaryMetric", a: "accuracy", b: "balanced_accuracy" }] }, improvement: null });
    const same = await server.client.models.compare.query({ modelId, a: 1, b: 2 });
    expect(same.comparability.comparable).toBe(true);
    expect(same.data.find((r) => r.key === "snapshotSha256")!.same).toBe(true);
  });

  it("downloads a version's export with its checksum, restores a damaged archive by hash, and refuses one it cannot restore", async () => {
    const v3 = (await server.client.models.show.query({ modelId })).versions.find((v) => v.number === 3)!;
    const res = await fetch(`${server.url}/api/models/${modelId}/versions/3/export`);
    expect(res.status).toBe(200);
    const body = Buffer.from(await res.arrayBuffer());
    expect(res.headers.get("x-checksum-sha256")).toBe(v3.exportSha256);
    expect(createHash("sha256").update(body).digest("hex")).toBe(v3.exportSha256);
    const archive = path.join(home.home, "artifacts", v3.exportSha256, "export.tar.gz");
    writeFileSync(archive, "damaged");
    expect((await fetch(`${server.url}/api/models/${modelId}/versions/3/export`)).status).toBe(409);
    // Promoting checks the export first: restored from the worker by its hash.
    let rev = (await server.client.models.show.query({ modelId })).model.revision;
    const promoted = await server.client.models.promote.mutate({ modelId, version: 3, reason: "balanced accuracy is what we report now", acceptRegression: true, expectedRevision: rev });
    expect(promoted.model.selected?.number).toBe(3);
    expect(sha256(archive)).toBe(v3.exportSha256);
    // Now without the worker's copy too: the version's export is missing and it cannot be selected.
    const v2 = (await server.client.models.show.query({ modelId })).versions.find((v) => v.number === 2)!;
    expect(v2.exportSha256).not.toBe(v3.exportSha256);
    const workerCopies = filesNamed(home.workerHome, "export.tar.gz").filter((f) => statSync(f).isFile() && sha256(f) === v2.exportSha256);
    expect(workerCopies.length).toBeGreaterThan(0);
    for (const f of workerCopies) rmSync(f);
    rmSync(path.join(home.home, "artifacts", v2.exportSha256, "export.tar.gz"));
    rev = promoted.model.revision;
    const refused = await refusal(server.client.models.promote.mutate({ modelId, version: 2, reason: "back to 2", acceptRegression: true, expectedRevision: rev }));
    expect(refused).toMatchObject({ code: "CONFLICT", reason: "export_missing" });
    const after = await server.client.models.show.query({ modelId });
    expect(after.versions.find((v) => v.number === 2)!.status).toBe("export_missing");
    expect([after.model.revision, after.model.selected?.number]).toEqual([rev, 3]);
    const retention = await server.client.models.retentionPreview.query({ projectId });
    expect(retention.kept.map((k) => k.number)).toEqual([3]);
    expect(retention.removable.map((r) => r.number).sort()).toEqual([1, 2]);
  });

  it("leaves the old selection and no event when the server is killed with SIGKILL in the middle of a promotion", async () => {
    const before = await server.client.models.show.query({ modelId });
    await server.stop();
    const pauseFile = path.join(home.scratch, "alias-move.paused");
    server = await startTestServer({ home, env: { ...REAL_TRAINING, TRAINYARD_TEST_ALIAS_MOVE_PAUSE_FILE: pauseFile } });
    const pending = server.client.models.promote.mutate({ modelId, version: 1, reason: "mid-flight", acceptRegression: true, expectedRevision: before.model.revision });
    pending.catch(() => undefined);
    await waitFor("the promotion to be inside its transaction", () => existsSync(pauseFile), 60_000, 50);
    await server.kill9();
    rmSync(pauseFile);
    server = await startTestServer({ home, env: REAL_TRAINING });
    const after = await server.client.models.show.query({ modelId });
    expect(after.model.revision).toBe(before.model.revision);
    expect(after.model.selected?.id).toBe(before.model.selected?.id);
    expect(after.history.map((e) => e.id)).toEqual(before.history.map((e) => e.id));
    // The registry still works after the kill: the same promotion now goes through, with its event.
    const r = await server.client.models.promote.mutate({ modelId, version: 1, reason: "after the restart", acceptRegression: true, expectedRevision: before.model.revision });
    expect(r.event).toMatchObject({ to: { number: 1 }, revision: before.model.revision + 1 });
  });

  it("refuses a 33rd model and an export over the project's budget (a setting saved through the API), naming what could be removed", async () => {
    // Each new model holds a version of experiment a: the bound counts models, not trainings.
    for (let i = (await server.client.models.list.query({ projectId })).length; i < 32; i++) {
      await server.client.models.register.mutate({ experimentId: exp.a, newModelName: `Model ${i}` });
    }
    const over = await refusal(server.client.models.register.mutate({ experimentId: exp.a, newModelName: "One too many" }));
    expect(over).toMatchObject({ code: "CONFLICT", reason: "too_many_models" });
    const models = await server.client.models.list.query({ projectId });
    expect(models).toHaveLength(32);
    const other = models.find((m) => m.name === "Model 1")!;
    const defaults = await server.client.models.settings.query();
    expect(defaults).toMatchObject({ revision: 0, values: { exportBytesPerProject: 2 * 1024 ** 3, minUsefulGain: 0.001 } });
    // Bounds are checked at the API edge, changing nothing.
    for (const values of [
      { exportBytesPerProject: 10, minUsefulGain: 0.001 },
      { exportBytesPerProject: 1024.5, minUsefulGain: 0.001 },
      { exportBytesPerProject: 1024 ** 3, minUsefulGain: -0.1 },
    ]) {
      expect((await refusal(server.client.models.updateSettings.mutate({ values, revision: 0 }))).code).toBe("BAD_REQUEST");
    }
    const used = (await server.client.models.retentionPreview.query({ projectId })).registeredBytes;
    const saved = await server.client.models.updateSettings.mutate({ values: { exportBytesPerProject: used - 1, minUsefulGain: 0.001 }, revision: 0 });
    expect(saved).toMatchObject({ revision: 1, values: { exportBytesPerProject: used - 1 } });
    expect(await refusal(server.client.models.updateSettings.mutate({ values: defaults.values, revision: 0 }))).toMatchObject({ code: "CONFLICT", reason: "stale_revision" });
    const r = await refusal(server.client.models.register.mutate({ experimentId: exp.b, modelId: other.id }));
    expect(r).toMatchObject({ code: "CONFLICT", reason: "export_budget" });
    expect(r.message).toMatch(/over its .*\. Could be removed: version \d+ of "/);
    expect((await server.client.models.show.query({ modelId: other.id })).versions).toHaveLength(1);
    // The retention preview names the oldest removable versions that would bring it back within the budget.
    const plan = (await server.client.models.retentionPreview.query({ projectId })).toFitBudget;
    expect(plan.fits).toBe(true);
    expect(plan.versionIds.length).toBeGreaterThan(0);
    expect(plan.bytesFreed).toBeGreaterThanOrEqual(1);
    const cli = await cliJson(server.url, ["models", "retention"]);
    expect(cli.json).toMatchObject({ budgetBytes: used - 1, registeredBytes: used, toFitBudget: { versionIds: plan.versionIds } });
    const back = await server.client.models.updateSettings.mutate({ values: defaults.values, revision: 1 });
    expect(back).toMatchObject({ revision: 2, values: defaults.values });
    expect((await server.client.models.retentionPreview.query({ projectId })).toFitBudget.versionIds).toEqual([]);
  });

  it("moves another alias (staging) with its own event, leaving the selection alone; an aliased version is kept by retention", async () => {
    const mine = (await server.client.models.list.query({ projectId })).find((m) => m.name === "Model 1")!;
    const r = await cliJson(server.url, ["models", "promote", "Model 1", "1", "--alias", "staging", "--reason", "try it on staging"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toMatchObject({ id: mine.id, revision: mine.revision + 1, selected: null, aliases: [{ name: "staging", version: 1 }], event: { alias: "staging", kind: "promote", from: null, to: { number: 1 } } });
    const history = await server.client.models.history.query({ modelId: mine.id });
    expect(history.map((e) => [e.alias, e.reason])).toEqual([["staging", "try it on staging"]]);
    const retention = await server.client.models.retentionPreview.query({ projectId });
    expect(retention.kept.find((k) => k.modelName === "Model 1" && k.aliases.includes("staging"))).toBeTruthy();
    expect(await refusal(server.client.models.removeVersion.mutate({ modelId: mine.id, version: 1, reason: "tidy" }))).toMatchObject({ code: "CONFLICT", reason: "version_in_use" });
  });

  it("removes a version no alias points at from the CLI (kept in the history, out of the budget, never selectable again) and refuses to remove an aliased one", async () => {
    const before = await server.client.models.show.query({ modelId });
    const selected = before.model.selected!;
    const events = before.history.length;
    expect(await refusal(server.client.models.removeVersion.mutate({ modelId, version: selected.number, reason: "tidy up" }))).toMatchObject({ code: "CONFLICT", reason: "version_in_use" });
    const refusedCli = await cliJson(server.url, ["models", "remove", MODEL, String(selected.number), "--reason", "tidy up"]);
    expect([refusedCli.code, refusedCli.json.error?.code]).toEqual([1, "version_in_use"]);
    const listed = await server.client.models.retentionPreview.query({ projectId });
    const three = listed.removable.find((r) => r.modelId === modelId && r.number === 3)!;
    expect(three).toBeTruthy();
    // Several at once are all or none: with the selected version among them, nothing is removed.
    const all = await refusal(server.client.models.removeVersions.mutate({ projectId, versionIds: [three.versionId, selected.id], reason: "tidy up" }));
    expect(all).toMatchObject({ code: "CONFLICT", reason: "version_in_use" });
    expect((await server.client.models.show.query({ modelId })).versions.find((v) => v.number === 3)!.status).not.toBe("removed");
    const removed = await cliJson(server.url, ["models", "remove", MODEL, "3", "--reason", "scored on another metric"]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.json).toMatchObject({ number: 3, status: "removed" });
    const after = await server.client.models.retentionPreview.query({ projectId });
    expect(after.removable.some((r) => r.modelId === modelId && r.number === 3)).toBe(false);
    expect(await refusal(server.client.models.promote.mutate({ modelId, version: 3, reason: "x", acceptRegression: true, expectedRevision: before.model.revision }))).toMatchObject({ reason: "version_removed" });
    expect(await refusal(server.client.models.removeVersion.mutate({ modelId, version: 3, reason: "again" }))).toMatchObject({ reason: "already_removed" });
    const now = await server.client.models.show.query({ modelId });
    expect(now.model.selected!.id).toBe(selected.id);
    expect(now.history).toHaveLength(events);
    expect(now.versions.find((v) => v.number === 3)!.status).toBe("removed");
  });

  it("holds 200 versions and shows 200 of 250 selection events, newest first; a 201st version is refused naming what to remove", async () => {
    // 200 trainings would take hours: version rows are copied from a real one (bound-copies.ts).
    const model = (await server.client.models.list.query({ projectId })).find((m) => m.name === "Model 2")!;
    const v1 = (await server.client.models.show.query({ modelId: model.id })).versions[0]!;
    copyVersionUpTo(path.join(home.home, "trainyard.db"), v1.id, 200);
    const r = await refusal(server.client.models.register.mutate({ experimentId: exp.b, modelId: model.id }));
    expect(r).toMatchObject({ code: "CONFLICT", reason: "too_many_versions" });
    expect(r.message).toMatch(/200 versions.*Could be removed: version \d+ of "/);
    let shown = await server.client.models.show.query({ modelId: model.id });
    expect(shown.versions.map((v) => v.number)).toEqual(Array.from({ length: 200 }, (_, i) => 200 - i));
    // 250 real promotions between two of them: all kept, the last 200 shown.
    let revision = shown.model.revision;
    for (let i = 0; i < 250; i++) {
      const moved = await server.client.models.promote.mutate({ modelId: model.id, version: i % 2 ? 2 : 1, reason: `move ${i}`, acceptRegression: true, expectedRevision: revision });
      revision = moved.model.revision;
    }
    shown = await server.client.models.show.query({ modelId: model.id });
    expect(shown.history).toHaveLength(200);
    expect(shown.history[0]!.reason).toBe("move 249");
    expect(shown.history[199]!.reason).toBe("move 50");
    expect((await server.client.models.history.query({ modelId: model.id, limit: 20 })).map((e) => e.reason)).toEqual(Array.from({ length: 20 }, (_, i) => `move ${249 - i}`));
    const check = new Database(path.join(home.home, "trainyard.db"), { readonly: true });
    try {
      expect(check.prepare(`SELECT count(*) AS n FROM "AliasEvent" WHERE modelId = ?`).get(model.id)).toEqual({ n: 250 });
    } finally {
      check.close();
    }
  });
});
