/**
 * A registered version owns what it serves (issue 27's data-loss bug, as a user met it:
 * train penguins, register, promote, delete the experiment → the promoted version could no
 * longer be deployed, its export gone for good). Through the real server, worker and
 * recipes: every delete a user can reach (the experiment, its dataset, another version
 * through the registry's own remove) is followed by deploying, predicting, downloading and
 * comparing what remains; the one-time copy of older versions' serving records at start,
 * and what it says of a version it cannot make whole.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZDeploymentPredictResponse } from "@/contracts/deployments/serving";
import { call, cliJson, GENTOO, ROW, trainedPenguins, ZMade } from "@/server/deployments/test-support";
import { makeTestHome, REPO, startTestServer, waitFor, type TestHome, type TestServer } from "@/server/testing/server-harness";
import { refusal } from "./registry-test-support";

const REAL_TRAINING = { TRAINYARD_TRAINING_DIR: path.join(REPO, "training") };

describe("a registered version after the deletes around it", { timeout: 900_000 }, () => {
  let home: TestHome;
  let server: TestServer;
  let projectId = "";
  let datasetId = "";
  let experimentId = "";
  const models: Record<"peng" | "copy" | "spare", string> = { peng: "", copy: "", spare: "" };
  let archive = "";
  let exportSha256 = "";

  const restart = async () => {
    await server.stop();
    server = await startTestServer({ home, env: REAL_TRAINING });
  };
  const sql = (statement: string, ...args: unknown[]) => {
    const db = new Database(path.join(home.home, "trainyard.db"));
    try {
      return db.prepare(statement).run(...args);
    } finally {
      db.close();
    }
  };
  const servingOf = (modelId: string) => {
    const db = new Database(path.join(home.home, "trainyard.db"), { readonly: true });
    try {
      return (db.prepare(`SELECT serving FROM "ModelVersion" WHERE modelId = ?`).get(modelId) as { serving: string | null }).serving;
    } finally {
      db.close();
    }
  };
  const predicts = async (url: string, key: string) => {
    const r = await call(url, key, { rows: [ROW, GENTOO] });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return ZDeploymentPredictResponse.parse(r.body).predictions.map((p) => p.prediction);
  };
  const downloads = async (modelId: string) => {
    const res = await fetch(`${server.url}/api/models/${modelId}/versions/1/export`);
    expect(res.status).toBe(200);
    return createHash("sha256").update(Buffer.from(await res.arrayBuffer())).digest("hex");
  };

  beforeAll(async () => {
    home = makeTestHome();
    server = await startTestServer({ home, env: REAL_TRAINING });
    projectId = (await server.client.projects.create.mutate({ name: "Default" })).id;
    ({ datasetId, experimentId } = await trainedPenguins(server, projectId));
  });
  afterAll(() => server?.stop());

  it("registers from the CLI with its own serving record; a version without one gets it copied at the next start", async () => {
    const r = await cliJson(server.url, ["models", "register", "--experiment", experimentId, "--model", "Peng"]);
    expect(r.code, r.stderr).toBe(0);
    models.peng = r.json.id as string;
    for (const name of ["copy", "spare"] as const) {
      models[name] = (await server.client.models.register.mutate({ experimentId, newModelName: `Peng ${name}` })).model.id;
    }
    const record = JSON.parse(servingOf(models.peng)!);
    expect(record).toMatchObject({ version: 1, serve: { kind: "tabular" }, featureSchema: { version: 1 } });
    expect(record.featureSchema.features.map((f: { name: string }) => f.name).sort()).toEqual(Object.keys(ROW).sort());
    // A version registered before versions kept their own record: the start after the upgrade copies it.
    sql(`UPDATE "ModelVersion" SET serving = NULL WHERE modelId = ?`, models.copy);
    await restart();
    await waitFor("the start's copy of the record", () => server.output().includes("registry: 1 version(s) now keep their own serving record"));
    expect(JSON.parse(servingOf(models.copy)!)).toEqual(record);
    const shown = await server.client.models.show.query({ modelId: models.peng });
    exportSha256 = shown.versions[0]!.exportSha256;
    archive = path.join(home.home, "artifacts", exportSha256, "export.tar.gz");
    expect(existsSync(archive)).toBe(true);
  });

  it("deleting the experiment of a promoted version says the export stays, keeps it, and the version still deploys, predicts, downloads and compares", async () => {
    // One confirmation: no reason given is recorded in plain words.
    const promoted = await cliJson(server.url, ["models", "promote", "Peng", "1"]);
    expect(promoted.code, promoted.stderr).toBe(0);
    expect(promoted.json).toMatchObject({ event: { kind: "promote", reason: "promoted" } });
    const preview = await server.client.experiments.deletePreview.query({ id: experimentId });
    expect(preview.frees).toEqual([]);
    expect(preview.keeps).toEqual([expect.objectContaining({ what: "export archive", why: expect.stringContaining('version 1 of "Peng"') })]);
    await server.client.experiments.delete.mutate({ id: experimentId });
    expect(existsSync(archive)).toBe(true);

    const made = await cliJson(server.url, ["deploy", "Peng:1", "--name", "peng-api"]);
    expect(made.code, made.stderr).toBe(0);
    const onDemand = ZMade.parse(made.json);
    const key = (await cliJson(server.url, ["deployments", "keys", "create", "peng-api"])).json.key as string;
    expect(await predicts(onDemand.urls.predict, key)).toEqual(["Adelie", "Gentoo"]);
    expect(await downloads(models.peng)).toBe(exportSha256);
    const compared = await server.client.models.compare.query({ modelId: models.peng, a: 1, b: 1 });
    expect(compared.comparability).toMatchObject({ comparable: true });

    const resident = ZMade.parse((await cliJson(server.url, ["deploy", "Peng copy:1", "--mode", "resident", "--name", "copy-api"])).json);
    const residentKey = (await cliJson(server.url, ["deployments", "keys", "create", "copy-api"])).json.key as string;
    await waitFor("the resident release to load", async () => {
      const h = await call(resident.urls.health, residentKey);
      if (h.body.state === "failed") throw new Error(`resident deployment failed: ${String(h.body.reason)}`);
      return h.body.state === "ready";
    }, 240_000, 500);
    expect(await predicts(resident.urls.predict, residentKey)).toEqual(["Adelie", "Gentoo"]);
  });

  it("removing a version refuses while a deployment serves it; removing another leaves the shared export to the versions that hold it", async () => {
    const deployed = await refusal(server.client.models.removeVersion.mutate({ modelId: models.copy, version: 1, reason: "tidy up" }));
    expect(deployed).toMatchObject({ code: "CONFLICT", reason: "version_deployed" });
    expect(deployed.message).toContain('"copy-api"');
    const removed = await server.client.models.removeVersion.mutate({ modelId: models.spare, version: 1, reason: "tidy up" });
    expect(removed.status).toBe("removed");
    expect(existsSync(archive)).toBe(true);
    expect(await downloads(models.peng)).toBe(exportSha256);
  });

  it("deleting the dataset it was trained on leaves every version serving and downloadable", async () => {
    const preview = await server.client.datasets.deletePreview.query({ id: datasetId });
    expect(preview.canDelete, JSON.stringify(preview.blockers)).toBe(true);
    await server.client.datasets.delete.mutate({ id: datasetId });
    const list = await server.client.deployments.list.query({ projectId });
    for (const d of list) {
      const key = (await server.client.deployments.createKey.mutate({ deploymentId: d.id, name: "after-delete" })).key;
      expect(await predicts(`${server.url}/api/deployments/${d.id}/predict`, key)).toEqual(["Adelie", "Gentoo"]);
    }
    expect(await downloads(models.peng)).toBe(exportSha256);
    expect(await downloads(models.copy)).toBe(exportSha256);
  });

  it("a version whose record cannot be copied (its experiment already gone) is named at start and refused at deploy, saying why", async () => {
    sql(`UPDATE "ModelVersion" SET serving = NULL WHERE modelId = ?`, models.peng);
    await restart();
    await waitFor("the start to name the version", () => server.output().includes('cannot be served any more (version 1 of "Peng": its experiment is gone)'));
    const refused = await cliJson(server.url, ["deploy", "Peng:1", "--name", "too-late"]);
    expect(refused.code).not.toBe(0);
    expect(refused.json.error?.code).toBe("not_self_contained");
  });
});
