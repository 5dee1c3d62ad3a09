/**
 * The tabular journey on an SSH server, through the real server, a real sshd on
 * loopback and the real recipes: the CLI uploads penguins to This computer, the dataset
 * is copied to the server over SFTP (verified by the worker's `put`), every step runs
 * under the server's supervisor, and the export comes back over SFTP, verified.
 * A project's default computer is used when the CLI names none. Deleting a dataset
 * deletes its copy on the server too. A schedule reads its file on the server (inside the
 * server worker's own allowed folders) and its run trains there.
 */
import { createHash, randomUUID } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "@/server/testing/cli-process";
import { upload, waitForProfile } from "@/server/datasets/test-support";
import { REPO, waitFor } from "@/server/testing/server-harness";
import { sshLabForFile } from "@/server/testing/ssh-lab";

const PENGUINS = path.join(REPO, "tests/fixtures/tabular/penguins.csv");

const { home, server, lab } = sshLabForFile({ name: "Lab server", env: { TRAINYARD_TRAINING_DIR: path.join(REPO, "training") } });

describe("training on an SSH server", { timeout: 600_000 }, () => {
  it("trains penguins on the project's default computer and brings back a verified export", async () => {
    const project = await server.client.projects.create.mutate({ name: "Remote" });
    await server.client.projects.setDefaultComputer.mutate({ id: project.id, targetId: lab.id });
    const out = path.join(home.scratch, "out");
    const { code, stdout, stderr } = await runCli(server.url, ["train", "--data", PENGUINS, "--target", "species", "--project", "Remote", "--models", "GBM", "--max-minutes", "4", "--out", out, "--json"]).done;
    expect(code, stderr).toBe(0);
    expect(stderr).toContain("started on Lab server");
    const result = JSON.parse(stdout);
    expect(result).toMatchObject({ status: "succeeded", task: "multiclass", betterThanBaseline: true });
    expect(result.candidate).toBeGreaterThan(0.85);

    const exp = await server.client.experiments.get.query({ id: result.experimentId });
    expect(exp.targetId).toBe(lab.id);
    expect(createHash("sha256").update(readFileSync(result.exportPath)).digest("hex")).toBe(exp.exportSha256);
    // Every step ran on the server, and the dataset is in the server's own store.
    const jobs = (await server.client.jobs.list.query({ limit: 500 })).filter((j) => j.opId.startsWith(exp.opId));
    expect(jobs.length).toBeGreaterThanOrEqual(7);
    expect(new Set(jobs.map((j) => j.targetId))).toEqual(new Set([lab.id]));
    expect(existsSync(path.join(lab.workerDir, "home", "store", exp.snapshotSha256.slice(0, 2), exp.snapshotSha256))).toBe(true);
    // The server's worker starts later jobs of a recipe forked from its warm runner (docs/dev/warm-start.md).
    const launches = jobs.map((j) => (JSON.parse(readFileSync(path.join(lab.workerDir, "home", "receipts", `${j.workerJobId}.json`), "utf8")) as { launch: string | null }).launch);
    expect(launches.every((l) => l === "warm" || l === "cold")).toBe(true);
    expect(launches).toContain("warm");

    // Try a prediction: the row travels to the server as a file and the answer comes back.
    const tried = await server.client.predictions.tryRow.mutate({
      experimentId: exp.id,
      values: { island: "Biscoe", bill_length_mm: "48.6", bill_depth_mm: "16", flipper_length_mm: "230", body_mass_g: "5800", sex: "male", year: "2009" },
    });
    expect(tried.prediction).toBe("Gentoo");
  });

  it("deleting a dataset also deletes its copy on the server", async () => {
    const project = await server.client.projects.create.mutate({ name: "Remote delete" });
    // Other bytes than the first test's file, so this snapshot is not shared with it.
    const text = readFileSync(PENGUINS, "utf8").trimEnd().split("\n").slice(0, -1).join("\n") + "\n";
    const up = await upload(server, project.id, "penguins-short.csv", text);
    const datasetId = up.body.datasetId!;
    const sha256 = up.body.snapshotSha256!;
    await waitForProfile(server, datasetId);
    const exp = await server.client.experiments.start.mutate({
      opId: randomUUID(),
      projectId: project.id,
      datasetId,
      targetId: lab.id,
      settings: { target: "species", task: "multiclass", metric: "accuracy", mode: "quick" },
    });
    const blob = path.join(lab.workerDir, "home", "store", sha256.slice(0, 2), sha256);
    await waitFor("the snapshot to be copied to the server", () => existsSync(blob), 120_000);
    await server.client.experiments.cancel.mutate({ id: exp.id });
    await waitFor("the experiment to stop", async () => ["cancelled", "succeeded", "failed"].includes((await server.client.experiments.get.query({ id: exp.id })).status), 120_000);

    const preview = await server.client.datasets.deletePreview.query({ id: datasetId });
    expect(preview).toMatchObject({ canDelete: true, removesSnapshot: true, serverCopies: ["Lab server"] });
    const deleted = await server.client.datasets.delete.mutate({ id: datasetId });
    expect(deleted.copiesLeft).toEqual([]);
    expect(existsSync(blob)).toBe(false);
  });

  it("a schedule reads its file on the server and its run trains there", async () => {
    const dir = path.join(home.scratch, "lab-data");
    mkdirSync(dir);
    const file = path.join(dir, "penguins.csv");
    copyFileSync(PENGUINS, file);
    // The server's allowed folders are its worker's (servers.md), not This computer's Settings.
    const config = path.join(lab.workerDir, "home", "config.json");
    const current = existsSync(config) ? (JSON.parse(readFileSync(config, "utf8")) as Record<string, unknown>) : {};
    writeFileSync(config, JSON.stringify({ ...current, allowedRoots: [dir] }));
    const made = await runCli(server.url, ["schedules", "create", "--project", "Remote schedule", "--computer", "Lab server", "--source", file, "--target", "species", "--every", "1d", "--stable-seconds", "1", "--max-minutes", "3", "--json"]).done;
    expect(made.code, made.stderr).toBe(0);
    const id = (JSON.parse(made.stdout) as { id: string }).id;
    const run = await runCli(server.url, ["schedules", "run", id, "--json"]).done;
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const answer = JSON.parse(run.stdout) as { outcome: string; experimentId: string };
    expect(answer.outcome).toBe("started");
    const exp = await server.client.experiments.get.query({ id: answer.experimentId });
    expect(exp.targetId).toBe(lab.id);
    const dataset = await server.client.datasets.get.query({ id: exp.datasetId });
    expect(dataset).toMatchObject({ sourceName: file, rowCount: 344 });
    expect(existsSync(path.join(lab.workerDir, "home", "store", exp.snapshotSha256.slice(0, 2), exp.snapshotSha256))).toBe(true);
    await server.client.experiments.cancel.mutate({ id: exp.id });
  });
});
