/**
 * Predictions and the export with the REAL recipes (data, tabular/AutoGluon, evaluation,
 * export) on penguins: a quick experiment (2-minute budget), then one typed row, a file
 * of new rows (a text cell that starts with "=" comes back neutralised), a file whose rows
 * do not sit one per line (each comes back with its own prediction), a file with the wrong
 * columns (the predict job's schema_mismatch, naming them), the export download with its checksum, and — after one byte of the stored
 * archive is changed — both the download and predictions refused by the verifier.
 * Environments come from the shared .tmp/envs (built once; minutes the first time).
 */
import { createHash } from "node:crypto";
import { appendFileSync, cpSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO, makeTestHome, startTestServer, waitFor, type TestHome, type TestServer } from "@/server/testing/server-harness";
import { parseRecords } from "@/server/tables/csv";
import { ONE_LIGHTGBM } from "@/server/testing/one-model";

const PENGUINS = path.join(REPO, "tests", "fixtures", "tabular", "penguins.csv");
let home: TestHome;
let server: TestServer;
let experimentId: string;
let exportSha256: string;

beforeAll(async () => {
  home = makeTestHome();
  const training = path.join(home.root, "training-real");
  cpSync(path.join(REPO, "training"), training, { recursive: true, filter: (s) => !s.includes("__pycache__") && !s.includes(`${path.sep}tests`) });
  server = await startTestServer({ home, env: { TRAINYARD_TRAINING_DIR: training } });
  const projectId = (await server.client.projects.create.mutate({ name: `Predictions ${Date.now()}` })).id;
  const res = await fetch(`${server.url}/api/datasets/upload?projectId=${projectId}&fileName=penguins.csv`, { method: "POST", body: readFileSync(PENGUINS) });
  const { datasetId } = (await res.json()) as { datasetId: string };
  await waitFor("the profile", async () => (await server.client.datasets.get.query({ id: datasetId })).status === "ready", 10 * 60_000, 500);
  const exp = await server.client.experiments.start.mutate({
    opId: `test-${Date.now()}`,
    projectId,
    datasetId,
    settings: { target: "species", task: "multiclass", metric: "accuracy", mode: "quick", maxMinutes: 2, hyperparameters: ONE_LIGHTGBM },
  });
  experimentId = exp.id;
  const done = await waitFor(
    "the experiment to end",
    async () => {
      const e = await server.client.experiments.get.query({ id: experimentId });
      return ["succeeded", "failed", "cancelled", "timed_out"].includes(e.status) ? e : undefined;
    },
    12 * 60_000,
    1000,
  );
  expect(done.status, done.note ?? "").toBe("succeeded");
  exportSha256 = done.exportSha256!;
}, 25 * 60_000);
afterAll(async () => {
  await server?.stop();
});

describe("predictions with a trained model", () => {
  it("predicts one typed row with class probabilities", async () => {
    const r = await server.client.predictions.tryRow.mutate({
      experimentId,
      values: { island: "Biscoe", bill_length_mm: 47.5, bill_depth_mm: 14.2, flipper_length_mm: 215, body_mass_g: 5100, sex: "male", year: 2008 },
    });
    expect(["Adelie", "Chinstrap", "Gentoo"]).toContain(r.prediction);
    expect(r.probabilities.map((p) => p.label).sort()).toEqual(["Adelie", "Chinstrap", "Gentoo"]);
    expect(r.probabilities.reduce((a, p) => a + p.probability, 0)).toBeCloseTo(1, 3);
  }, 5 * 60_000);

  it("predicts a file and refuses one whose columns do not match, naming them", async () => {
    const lines = readFileSync(PENGUINS, "utf8").trim().split("\n").slice(0, 8);
    // One more row whose island is a spreadsheet formula and whose bill length is negative.
    const body = lines.map((l) => l.split(",").slice(1).join(",")).join("\n") + "\n=1+1,-1.5,18.7,181,3750,male,2007\n";
    const ok = await fetch(`${server.url}/api/experiments/${experimentId}/predict?fileName=rows.csv`, { method: "POST", body });
    expect(ok.status).toBe(200);
    const out = (await ok.text()).trim().split("\n");
    expect(out).toHaveLength(9);
    expect(out[0]).toMatch(/^island,.*,prediction,proba::Adelie,proba::Chinstrap,proba::Gentoo$/);
    // The formula comes back as text (OWASP: a leading quote); the number stays a number.
    expect(out[8]).toMatch(/^'=1\+1,-1\.5,18\.7,181,3750,male,2007,(Adelie|Chinstrap|Gentoo),/);

    // A file name outside Latin-1 is answered (RFC 5987 filename*), not a 500 after the job ran.
    const named = await fetch(`${server.url}/api/experiments/${experimentId}/predict?fileName=${encodeURIComponent("données-預測.csv")}`, { method: "POST", body });
    expect(named.status).toBe(200);
    const disposition = named.headers.get("content-disposition") ?? "";
    expect(disposition).toContain(`filename*=UTF-8''${encodeURIComponent("données-預測-predictions.csv")}`);
    expect((await named.text()).trim().split("\n")).toHaveLength(9);

    const bad = await fetch(`${server.url}/api/experiments/${experimentId}/predict?fileName=bad.csv`, { method: "POST", body: "colour,weight\nred,3\n" });
    expect(bad.status).toBe(400);
    const err = (await bad.json()) as { error: string };
    expect(err.error).toMatch(/schema_mismatch/);
    expect(err.error).toMatch(/island/);
  }, 5 * 60_000);

  it("gives each row of a file its own prediction when rows are not one per line", async () => {
    const header = "island,bill_length_mm,bill_depth_mm,flipper_length_mm,body_mass_g,sex,year";
    const adelie = "Torgersen,39.1,18.7,181,3750";
    const gentoo = "Biscoe,47.5,14.2,215,5100";
    // A byte order mark, a quoted line break, CRLF, and blank and whitespace-only lines that
    // pandas skips: a join by line, or by a parser that keeps those lines, shifts rows.
    const body = `\ufeff${header}\r\n${adelie},"ma\nle",2007\r\n\n   \n${gentoo},female,2009\n\t\n${adelie},female,2008\n${gentoo},"fe\nmale",2008\n`;
    const res = await fetch(`${server.url}/api/experiments/${experimentId}/predict?fileName=tricky.csv`, { method: "POST", body });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-prediction-rows")).toBe("4");
    const [head, ...rows] = parseRecords(await res.text(), { delimiter: "," });
    expect(head).toEqual([...header.split(","), "prediction", "proba::Adelie", "proba::Chinstrap", "proba::Gentoo"]);
    expect(rows.map((r) => r.slice(0, 7))).toEqual([
      [...adelie.split(","), "ma\nle", "2007"],
      [...gentoo.split(","), "female", "2009"],
      [...adelie.split(","), "female", "2008"],
      [...gentoo.split(","), "fe\nmale", "2008"],
    ]);
    expect(rows.map((r) => r[7])).toEqual(["Adelie", "Gentoo", "Adelie", "Gentoo"]);
    for (const r of rows) expect(Number(r[8]) + Number(r[9]) + Number(r[10])).toBeCloseTo(1, 3);
  }, 5 * 60_000);

  it("sends the verified export with its checksum, and refuses a changed archive for download and predictions", async () => {
    const res = await fetch(`${server.url}/api/experiments/${experimentId}/export`);
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(res.headers.get("x-checksum-sha256")).toBe(exportSha256);
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(exportSha256);

    appendFileSync(path.join(home.home, "artifacts", exportSha256, "export.tar.gz"), Buffer.from([0]));
    const refused = await fetch(`${server.url}/api/experiments/${experimentId}/export`);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: string }).error).toMatch(/not the recorded/);
    await expect(server.client.predictions.tryRow.mutate({ experimentId, values: {} })).rejects.toThrow(/was not used/);
  }, 5 * 60_000);
});
