// Registering by path inside allowed folders (the worker enforces them), the data tools'
// setup progress on first use (this server starts with an empty environments folder),
// checks for a target, split contracts reused for the same settings, and deletion with its preview
// — through the real server, worker and data recipe.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTestHome, waitFor, type TestHome, type TestServer } from "@/server/testing/server-harness";
import { blobPath } from "./local-store";
import { startDataServer, TABULAR, upload, waitForProfile } from "./test-support";

let home: TestHome;
let server: TestServer;
let projectId: string;
let dataDir: string;
let outside: string;

beforeAll(async () => {
  home = makeTestHome();
  dataDir = path.join(home.root, "user-data");
  outside = path.join(home.root, "elsewhere");
  mkdirSync(dataDir);
  mkdirSync(outside);
  copyFileSync(path.join(TABULAR, "seattle_weather.csv"), path.join(dataDir, "weather.csv"));
  writeFileSync(path.join(outside, "secret.csv"), "a,b\n1,2\n");
  symlinkSync(path.join(outside, "secret.csv"), path.join(dataDir, "link.csv"));
  execFileSync("mkfifo", [path.join(dataDir, "pipe.csv")]);
  server = await startDataServer(home, { freshEnvs: true });
  projectId = (await server.client.projects.create.mutate({ name: "Data by path" })).id;
});
afterAll(async () => {
  await server?.stop();
});

const workerRoots = () => (JSON.parse(readFileSync(path.join(home.workerHome, "config.json"), "utf8")) as { allowedRoots?: string[] }).allowedRoots ?? [];

describe("allowed folders", () => {
  it("none by default: a path is refused with what to do", async () => {
    const s = await server.client.settings.get.query();
    expect(s.values.allowedRoots).toEqual([]);
    expect(s.explanation).toMatch(/never changes or deletes/);
    await expect(server.client.datasets.registerPath.mutate({ projectId, path: path.join(dataDir, "weather.csv") })).rejects.toThrow(/No folder is allowed/);
  });

  it("saving one updates the worker's config; a stale revision is a CONFLICT", async () => {
    const s = await server.client.settings.get.query();
    const saved = await server.client.settings.update.mutate({ revision: s.revision, values: { ...s.values, allowedRoots: [dataDir] } });
    expect(saved.values.allowedRoots).toEqual([dataDir]);
    expect(workerRoots()).toEqual([dataDir]);
    await expect(server.client.settings.update.mutate({ revision: s.revision, values: { ...s.values, allowedRoots: [] } })).rejects.toMatchObject({ data: { code: "CONFLICT" } });
    await expect(server.client.settings.update.mutate({ revision: saved.revision, values: { ...s.values, allowedRoots: ["/"] } })).rejects.toThrow(/whole disk/);
  });

  it("refuses '..', a symlink leading outside, a FIFO — the worker checks on its own", async () => {
    const reg = (p: string) => server.client.datasets.registerPath.mutate({ projectId, path: p });
    await expect(reg(`${dataDir}/../elsewhere/secret.csv`)).rejects.toThrow(/contains '\.\.'/);
    await expect(reg(path.join(outside, "secret.csv"))).rejects.toThrow(/outside the allowed folders/);
    await expect(reg(path.join(dataDir, "link.csv"))).rejects.toThrow(/resolves \(through a symlink\).*outside the allowed roots/);
    await expect(reg(path.join(dataDir, "pipe.csv"))).rejects.toThrow(/is a FIFO/);
    expect(await server.client.datasets.list.query({ projectId })).toEqual([]);
  });

  it("a file inside is snapshotted, the data tools are set up on first use with visible progress, then it is profiled", async () => {
    const r = await server.client.datasets.registerPath.mutate({ projectId, path: path.join(dataDir, "weather.csv") });
    expect(r.snapshotSha256).toBe("0845078a290b48e3149ab8639966824110a251db4e06fc144c06ebb534af23be");
    const first = await server.client.datasets.profileStatus.query({ id: r.datasetId });
    expect(first.status).toBe("profiling");
    expect(first.job).toBeNull();
    expect(first.setup?.jobId).toBeTruthy();
    const prepare = await server.client.jobs.get.query({ id: first.setup!.jobId });
    expect(prepare).toMatchObject({ recipe: "data", jobName: "prepare" });
    const withLog = await waitFor("setup log text", async () => {
      const s = await server.client.datasets.profileStatus.query({ id: r.datasetId });
      return s.setup?.logTail ? s.setup : s.job ? s : undefined;
    }, 120_000, 250);
    expect(withLog).toBeTruthy();
    const d = await waitForProfile(server, r.datasetId, 180_000);
    expect(d).toMatchObject({ status: "ready", rowCount: 1461, sourceKind: "path", sourceName: path.join(dataDir, "weather.csv") });
    // The user's file is untouched; the snapshot is a separate read-only copy.
    expect(existsSync(path.join(dataDir, "weather.csv"))).toBe(true);
    expect(existsSync(blobPath(home.workerHome, r.snapshotSha256))).toBe(true);
  });
});

describe("checks and splits", () => {
  let weatherId: string;
  beforeAll(async () => {
    weatherId = (await server.client.datasets.list.query({ projectId })).find((d) => d.name === "weather.csv")!.id;
  });

  it("suggests the task and metric with a reason and lists issues for the target", async () => {
    await server.client.datasets.startChecks.mutate({ id: weatherId, target: "weather" });
    const c = await waitFor("checks", async () => {
      const v = await server.client.datasets.checks.query({ id: weatherId, target: "weather" });
      return v && v.status !== "running" ? v : undefined;
    }, 120_000, 250);
    expect(c.status).toBe("ready");
    const result = c.result!;
    expect(result.task).toBe("multiclass");
    expect(result.metric).toBe("balanced_accuracy");
    expect(result.metricReason).toMatch(/snow/);
    expect(result.issues.find((i) => i.code === "time_column")).toMatchObject({ columns: ["date"], severity: "warning" });
    // Cached: asking again starts no new job.
    const again = await server.client.datasets.startChecks.mutate({ id: weatherId, target: "weather" });
    expect(again.jobId).toBe(c.jobId);
  });

  it("a target column with one value is refused with the recipe's message", async () => {
    const rows = readFileSync(path.join(TABULAR, "penguins.csv"), "utf8").trim().split("\n").map((l, i) => `${l},${i === 0 ? "site" : "palmer"}`);
    const up = await upload(server, projectId, "penguins-site.csv", rows.join("\n") + "\n");
    await waitForProfile(server, up.body.datasetId!);
    await server.client.datasets.startChecks.mutate({ id: up.body.datasetId!, target: "site" });
    const c = await waitFor("checks", async () => {
      const v = await server.client.datasets.checks.query({ id: up.body.datasetId!, target: "site" });
      return v && v.status !== "running" ? v : undefined;
    }, 120_000, 250);
    expect(c.status).toBe("failed");
    expect(c.error?.code).toBe("target_single_value");
    expect(c.error?.message).toMatch(/site/);
  });

  it("the same snapshot and settings give the same split contract, without a new job", async () => {
    const settings = { datasetId: weatherId, target: "weather", task: "multiclass" as const, strategy: "time" as const, timeColumn: "date", seed: 7 };
    await server.client.datasets.split.mutate(settings);
    const ready = await waitFor("split", async () => {
      const v = await server.client.datasets.split.mutate(settings);
      return v.status !== "running" ? v : undefined;
    }, 120_000, 250);
    expect(ready.status).toBe("ready");
    expect(ready.splitRef).toMatch(/^sha256:[0-9a-f]{64}$/);
    const contract = ready.contract!;
    expect(contract).toMatchObject({ strategy: "time", snapshotSha256: "0845078a290b48e3149ab8639966824110a251db4e06fc144c06ebb534af23be" });
    expect(contract.counts.train + contract.counts.validation + contract.counts.test + contract.counts.excluded).toBe(1461);
    const again = await server.client.datasets.split.mutate(settings);
    expect(again).toMatchObject({ id: ready.id, jobId: ready.jobId, splitRef: ready.splitRef });
    const other = await server.client.datasets.split.mutate({ ...settings, strategy: "random", timeColumn: undefined });
    expect(other.id).not.toBe(ready.id);
  });
});

describe("delete", () => {
  it("previews what is freed, then removes the dataset and its snapshot from the store only", async () => {
    const list = await server.client.datasets.list.query({ projectId });
    const d = list.find((x) => x.name === "weather.csv")!;
    // An active job reading the snapshot blocks the deletion, and the preview says which.
    const split = await server.client.datasets.split.mutate({ datasetId: d.id, target: "weather", task: "multiclass", strategy: "random", seed: 99 });
    const blocked = await server.client.datasets.deletePreview.query({ id: d.id });
    expect(blocked.canDelete).toBe(false);
    expect(blocked.blockers.map((b) => b.id)).toContain(split.jobId);
    await expect(server.client.datasets.delete.mutate({ id: d.id })).rejects.toMatchObject({ data: { code: "CONFLICT" } });
    const preview = await waitFor("the split job to end", async () => {
      const p = await server.client.datasets.deletePreview.query({ id: d.id });
      return p.canDelete ? p : undefined;
    }, 60_000, 250);
    expect(preview).toMatchObject({ removesSnapshot: true, freedBytes: d.bytes, canDelete: true, blockers: [] });
    // The worker removes the blob (its gc naming it), and with it its own record that the blob was verified.
    const verified = path.join(home.workerHome, "index", "verified", d.snapshotSha256);
    expect(existsSync(verified)).toBe(true);
    expect((await server.client.datasets.delete.mutate({ id: d.id })).copiesLeft).toEqual([]);
    expect(existsSync(blobPath(home.workerHome, d.snapshotSha256))).toBe(false);
    expect(existsSync(verified)).toBe(false);
    expect(existsSync(path.join(dataDir, "weather.csv"))).toBe(true);
    expect((await server.client.datasets.list.query({ projectId })).some((x) => x.id === d.id)).toBe(false);
    // Registering it again works and makes a fresh snapshot.
    const r = await server.client.datasets.registerPath.mutate({ projectId, path: path.join(dataDir, "weather.csv") });
    expect(r.reused).toBe(false);
    expect(existsSync(blobPath(home.workerHome, r.snapshotSha256))).toBe(true);
  });
});
