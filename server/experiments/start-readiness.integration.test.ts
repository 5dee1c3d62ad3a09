/**
 * Hopeless setups are stopped before training, through the real server, worker and data
 * recipe (profiles of real files; no training runs): the wizard's readiness answer and
 * experiments.start refuse the same setups with the same reasons, and the CLI prints them.
 * Files: the one-column and penguins fixtures, and tables derived from penguins here.
 */
import { randomUUID } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDataServer, TABULAR, upload, waitForProfile } from "@/server/datasets/test-support";
import { runCli } from "@/server/testing/cli-process";
import { makeTestHome, type TestHome, type TestServer } from "@/server/testing/server-harness";

let home: TestHome;
let server: TestServer;
let projectId: string;
const penguinLines = readFileSync(path.join(TABULAR, "penguins.csv"), "utf8").trimEnd().split("\n");

/** penguins with extra columns (values per data row) or with some species renamed. */
function derivedPenguins(extra: Record<string, (i: number) => string>, species?: (s: string, i: number) => string): string {
  const names = Object.keys(extra);
  const rows = penguinLines.slice(1).map((line, i) => {
    const cells = line.split(",");
    if (species) cells[0] = species(cells[0]!, i);
    return [...cells, ...names.map((n) => extra[n]!(i))].join(",");
  });
  return `${[penguinLines[0], ...names].join(",")}\n${rows.join("\n")}\n`;
}

async function profiled(fileName: string, body: string | Buffer): Promise<string> {
  const res = await upload(server, projectId, fileName, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const d = await waitForProfile(server, res.body.datasetId!, 300_000);
  expect(d.status).toBe("ready");
  return d.id;
}

const start = (datasetId: string, settings: { target: string; task: "binary" | "multiclass" | "regression"; metric: "accuracy" | "rmse" }) =>
  server.client.experiments.start.mutate({ opId: randomUUID(), projectId, datasetId, settings });

beforeAll(async () => {
  home = makeTestHome();
  server = await startDataServer(home);
  projectId = (await server.client.projects.create.mutate({ name: "Guards" })).id;
}, 600_000);
afterAll(async () => {
  await server?.stop();
});

describe("hopeless setups are stopped before training", { timeout: 600_000 }, () => {
  it("a one-column file: no feature columns, refused by start and by the CLI with the reason", async () => {
    const id = await profiled("one-column.csv", readFileSync(path.join(TABULAR, "one-column.csv")));
    const r = await server.client.experiments.readiness.query({ datasetId: id, target: "body_mass_g", task: "regression" });
    expect(r.ready).toBe(false);
    expect(r.refusals.map((x) => x.code)).toEqual(["no_feature_columns"]);
    await expect(start(id, { target: "body_mass_g", task: "regression", metric: "rmse" })).rejects.toMatchObject({
      message: expect.stringMatching(/body_mass_g is the only column in the file/),
      data: { code: "BAD_REQUEST", details: { code: "no_feature_columns" } },
    });
    expect(await server.client.experiments.list.query({ projectId })).toEqual([]);

    const cli = await runCli(server.url, ["train", "--data", path.join(TABULAR, "one-column.csv"), "--target", "body_mass_g", "--project", "Guards"]).done;
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(/Cannot train on one-column\.csv with body_mass_g as the column to predict: body_mass_g is the only column in the file/);
    expect(cli.stderr).not.toMatch(/Traceback|NDFrame/);
  });

  it("an ID-like target: a per-row tag is refused as classes, a counting penguin_id only warned about and not offered", async () => {
    const id = await profiled("penguins-ids.csv", derivedPenguins({ penguin_id: (i) => String(i + 1), tag: (i) => `P-${String(i).padStart(3, "0")}` }));
    const options = await server.client.experiments.targetOptions.query({ datasetId: id });
    expect(options.idLike.map((c) => c.name).sort()).toEqual(["penguin_id", "tag"]);

    const tag = await server.client.experiments.readiness.query({ datasetId: id, target: "tag", task: "multiclass" });
    expect(tag.refusals.map((x) => x.code)).toEqual(["target_unique_per_row"]);
    expect(tag.refusals[0]!.message).toMatch(/different value in each of its 344 rows/);
    await expect(start(id, { target: "tag", task: "multiclass", metric: "accuracy" })).rejects.toMatchObject({ data: { details: { code: "target_unique_per_row" } } });

    const counting = await server.client.experiments.readiness.query({ datasetId: id, target: "penguin_id", task: "regression" });
    expect(counting).toMatchObject({ ready: true, refusals: [] });
    expect(counting.warnings.map((x) => x.code)).toEqual(["target_looks_like_id"]);
    expect(counting.warnings[0]!.message).toMatch(/penguin_id holds a different whole number in every row, counting up/);
    // A measurement that happens to repeat is neither refused nor warned about.
    expect(await server.client.experiments.readiness.query({ datasetId: id, target: "body_mass_g", task: "regression" })).toMatchObject({ ready: true, refusals: [], warnings: [] });
  });

  it("a constant target and classes too small for the split are refused with what to do", async () => {
    const id = await profiled(
      "penguins-rare.csv",
      derivedPenguins({ planet: () => "Earth" }, (s, i) => (i === 0 || i === 1 ? "Emperor" : i === 2 ? "Macaroni" : s)),
    );
    await expect(start(id, { target: "planet", task: "binary", metric: "accuracy" })).rejects.toMatchObject({
      message: expect.stringMatching(/planet has the same value \(Earth\) in every row/),
      data: { details: { code: "target_single_value" } },
    });
    const rare = await server.client.experiments.readiness.query({ datasetId: id, target: "species", task: "multiclass" });
    expect(rare.refusals.map((x) => x.code)).toEqual(["class_too_small"]);
    expect(rare.refusals[0]!.message).toMatch(/Macaroni \(1 row\), Emperor \(2 rows\)\. Each class needs at least 5 rows/);
    expect(rare.refusals[0]!.message).toMatch(/Merge them into bigger classes, add more rows of them, or drop those rows from the file/);
    expect((await server.client.experiments.readiness.query({ datasetId: id, target: "island", task: "multiclass" })).ready).toBe(true);

    const file = path.join(home.scratch, "penguins-rare.csv");
    writeFileSync(file, derivedPenguins({ planet: () => "Earth" }, (s, i) => (i === 0 || i === 1 ? "Emperor" : i === 2 ? "Macaroni" : s)));
    const cli = await runCli(server.url, ["train", "--data", file, "--target", "species", "--project", "Guards"]).done;
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(/Macaroni \(1 row\), Emperor \(2 rows\)/);
    expect(await server.client.experiments.list.query({ projectId })).toEqual([]);
  });
});
