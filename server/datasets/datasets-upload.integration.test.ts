// Uploads through the real server into the real worker's store, profiled by the real
// data recipe: the happy path, reuse of identical bytes, and every bad upload refused
// with a clear message and nothing half-registered.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { gzipSync } from "node:zlib";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTestHome, TEST_ENVS_DIR, waitFor, type TestHome, type TestServer } from "@/server/testing/server-harness";
import { cliAsync } from "@/tests/support/server-process";
import { blobPath } from "./local-store";
import { incomingLeftovers, startDataServer, TABULAR, upload, waitForProfile } from "./test-support";

let home: TestHome;
let server: TestServer;
let projectId: string;
const penguins = readFileSync(path.join(TABULAR, "penguins.csv"));

beforeAll(async () => {
  home = makeTestHome();
  server = await startDataServer(home);
  projectId = (await server.client.projects.create.mutate({ name: "Data uploads" })).id;
});
afterAll(async () => {
  await server?.stop();
});

const datasetCount = async () => (await server.client.datasets.list.query({ projectId })).length;

async function expectRefused(fileName: string, body: Uint8Array | string, status: number, code: string, text: RegExp) {
  const before = await datasetCount();
  const res = await upload(server, projectId, fileName, body);
  expect(res.status).toBe(status);
  expect(res.body.code).toBe(code);
  expect(res.body.error).toMatch(text);
  expect(await datasetCount()).toBe(before);
  expect(incomingLeftovers(home)).toEqual([]);
}

describe("upload", () => {
  it("stores penguins.csv once, shows its first rows at once and its profile after the job", async () => {
    const res = await upload(server, projectId, "penguins.csv", penguins);
    expect(res.status).toBe(201);
    expect(res.body.snapshotSha256).toBe("f204db2c753b0937caac3cb35258562c14f073e4bbc76be24b4c51ce22767a93");
    const id = res.body.datasetId!;
    const preview = await server.client.datasets.preview.query({ id });
    expect(preview.header).toContain("species");
    expect(preview.rows[0]).toHaveLength(preview.header.length);
    expect(preview.rows.length).toBe(20);

    const d = await waitForProfile(server, id);
    expect(d.status).toBe("ready");
    expect(d.rowCount).toBe(344);
    expect(d.columnCount).toBe(8);
    expect(d.datasetFormat).toMatchObject({ format: "csv", delimiter: ",", encoding: "utf-8" });
    expect(d.columns.find((c) => c.name === "species")?.type).toBe("categorical");
    expect(d.copies).toHaveLength(1);
    expect(d.snapshotRef).toBe(`sha256:${res.body.snapshotSha256}`);
    // One copy on disk: in the worker's store, read-only, nothing left in incoming/.
    const blob = blobPath(home.workerHome, res.body.snapshotSha256!);
    expect(readFileSync(blob).equals(penguins)).toBe(true);
    expect(incomingLeftovers(home)).toEqual([]);

    const again = await upload(server, projectId, "penguins-copy.csv", penguins);
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ datasetId: id, reused: true });
    expect(await datasetCount()).toBe(1);
  });

  it("the CLI streams a file through the same route", async () => {
    const file = path.join(TABULAR, "seattle_weather.csv");
    const run = await cliAsync(["dataset", "upload", file, "--project", "data UPLOADS"], { TRAINYARD_URL: server.url, TRAINYARD_HOME: home.home });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/Registered: seattle_weather\.csv in "Data uploads" as dataset \S+ \(snapshot sha256:0845078a/);
    const d = (await server.client.datasets.list.query({ projectId })).find((x) => x.name === "seattle_weather.csv");
    expect(d?.bytes).toBe(48219);
    const missing = await cliAsync(["dataset", "upload", file, "--project", "Nope"], { TRAINYARD_URL: server.url, TRAINYARD_HOME: home.home });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/no project named "Nope"/);
  });

  it("reads TSV, gzip-compressed CSV and Parquet, and records each format", async () => {
    const text = penguins.toString("utf8");
    const tsv = Buffer.from(text.replace(/,/g, "\t"));
    // Parquet written by the data recipe's own Python (pyarrow) from the same rows.
    const dataEnv = readdirSync(TEST_ENVS_DIR).find((e) => {
      try {
        return (JSON.parse(readFileSync(path.join(TEST_ENVS_DIR, e, "ready.json"), "utf8")) as { recipe: string }).recipe === "data";
      } catch {
        return false;
      }
    });
    const parquetFile = path.join(home.scratch, "penguins.parquet");
    execFileSync(path.join(TEST_ENVS_DIR, dataEnv!, "venv", "bin", "python"), ["-c", `import pandas as pd; pd.read_csv(${JSON.stringify(path.join(TABULAR, "penguins.csv"))}).to_parquet(${JSON.stringify(parquetFile)})`]);
    const cases = [
      { name: "penguins.tsv", body: tsv, format: "tsv" },
      { name: "penguins.csv.gz", body: gzipSync(penguins), format: "csv.gz" },
      { name: "penguins.parquet", body: readFileSync(parquetFile), format: "parquet" },
    ];
    const ids = await Promise.all(cases.map(async (c) => (await upload(server, projectId, c.name, c.body)).body.datasetId!));
    for (const [i, c] of cases.entries()) {
      const d = await waitForProfile(server, ids[i]!);
      expect(d.status, c.name).toBe("ready");
      expect(d.datasetFormat?.format, c.name).toBe(c.format);
      expect(d.rowCount, c.name).toBe(344);
      expect(d.columns.map((x) => x.name), c.name).toContain("species");
    }
    const gz = await server.client.datasets.preview.query({ id: ids[1]! });
    expect(gz.kind).toBe("binary");
  });

  it("refuses an empty file", () => expectRefused("empty.csv", "", 400, "empty_file", /empty\.csv is empty/));

  it("refuses a header-only file at upload, like an empty one", () =>
    expectRefused("header-only.csv", readFileSync(path.join(TABULAR, "header-only.csv")), 400, "header_only", /header-only\.csv has a header but no data rows/));

  it("refuses a binary file named .csv", () =>
    expectRefused("photo.csv", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]), 400, "not_text", /NUL byte.*binary/));

  it("refuses invalid UTF-8 and offers Latin-1, which then works", async () => {
    const latin1 = Buffer.from("name,city\nJosé,Zürich\nRenée,Köln\nAnaïs,Genève\n", "latin1");
    await expectRefused("cities.csv", latin1, 400, "invalid_utf8", /not valid UTF-8.*line 2.*Latin-1/);
    const ok = await upload(server, projectId, "cities.csv", latin1, "latin-1");
    expect(ok.status).toBe(201);
    const d = await waitForProfile(server, ok.body.datasetId!);
    expect(d.status).toBe("ready");
    expect(d.encoding).toBe("latin-1");
    expect(d.datasetFormat).toMatchObject({ encoding: "latin-1" });
    expect(d.rowCount).toBe(3);
  });

  it("refuses a single line of 100 MB, naming the 10 MiB line limit", () => {
    const line = Buffer.alloc(100 * 1024 * 1024, 0x61);
    return expectRefused("one-line.csv", line, 400, "line_too_long", /longer than the line limit of 10 MiB/);
  });

  it("refuses 50,000 columns, naming the 10,000 column limit", () => {
    const header = Array.from({ length: 50_000 }, (_, i) => `c${i}`).join(",");
    return expectRefused("wide.csv", `${header}\n${header.replace(/c/g, "")}\n`, 400, "too_many_columns", /50,000 columns, more than the limit of 10,000/);
  });

  it("refuses past the upload cap as soon as the stream passes it", async () => {
    const s = await server.client.settings.get.query();
    await server.client.settings.update.mutate({ revision: s.revision, values: { ...s.values, uploadMaxBytes: 64 * 1024 } });
    try {
      const diamonds = readFileSync(path.join(TABULAR, "diamonds.csv"));
      await expectRefused("diamonds.csv", diamonds, 413, "too_large", /upload cap of 64 KiB/);
    } finally {
      const now = await server.client.settings.get.query();
      await server.client.settings.update.mutate({ revision: now.revision, values: { ...now.values, uploadMaxBytes: 2 * 1024 ** 3 } });
    }
  });

  it("removes the partial file of an upload interrupted half-way and registers nothing", async () => {
    const before = await datasetCount();
    const q = new URLSearchParams({ projectId, fileName: "half.csv" });
    const total = 4 * 1024 * 1024;
    const req = http.request(`${server.url}/api/datasets/upload?${q}`, { method: "POST", headers: { "content-length": String(total) } });
    req.on("error", () => {});
    const row = Buffer.from("a,b,c\n1,2,3\n".repeat(1000));
    let sent = 0;
    while (sent < total / 2) {
      req.write(row);
      sent += row.length;
    }
    // Wait until the server has really started writing the temp file, then cut the connection.
    await waitFor("the upload temp file", () => incomingLeftovers(home).some((f) => f.startsWith("upload-")), 20_000, 20);
    req.destroy();
    await waitFor("the partial file to be removed", () => incomingLeftovers(home).length === 0, 20_000, 50);
    expect(await datasetCount()).toBe(before);
  });

  it("a disk that fills during the upload (ENOSPC test hook) leaves nothing behind", async () => {
    // Test hook in a config value: Setting "test.uploadFaults" (never exposed by the API).
    const db = new Database(path.join(home.home, "trainyard.db"));
    db.prepare(`INSERT INTO "Setting" (key, value, revision, updatedAt) VALUES (?, ?, 1, ?)`).run("test.uploadFaults", JSON.stringify({ enospcAfterBytes: 4096 }), new Date().toISOString());
    try {
      await expectRefused("weather.csv", readFileSync(path.join(TABULAR, "seattle_weather.csv")), 507, "disk_full", /disk of This computer filled up/);
    } finally {
      db.prepare(`DELETE FROM "Setting" WHERE key = ?`).run("test.uploadFaults");
      db.close();
    }
  });

  // Needs root (or CAP_SYS_ADMIN) to mount: without it this test fails and says so rather than checking nothing.
  it("a really full disk (a 1 MiB tmpfs mounted on incoming/) leaves nothing behind", async () => {
    const incoming = path.join(home.workerHome, "incoming");
    try {
      execFileSync("mount", ["-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", incoming], { stdio: "pipe" });
    } catch (err) {
      throw new Error(`this test mounts a 1 MiB tmpfs and needs root or CAP_SYS_ADMIN: ${(err as Error).message}`);
    }
    try {
      await expectRefused("diamonds.csv", readFileSync(path.join(TABULAR, "diamonds.csv")), 507, "disk_full", /disk of This computer filled up/);
    } finally {
      execFileSync("umount", [incoming]);
    }
  });

  it("refuses a gzip-compressed header-only file, ragged rows and a gzip bomb in the profile, with the recipe's code", async () => {
    const s = await server.client.settings.get.query();
    await server.client.settings.update.mutate({ revision: s.revision, values: { ...s.values, maxDecompressedBytes: 1024 * 1024 } });
    const bomb = gzipSync(Buffer.from("a,b\n" + "1,2\n".repeat(1024 * 1024)));
    const cases = [
      // Compressed bytes are not read while they arrive: the profile refuses this one.
      { name: "header.csv.gz", body: gzipSync(Buffer.from("species,island,mass\n")), code: "header_only", text: /no data rows/i },
      { name: "ragged.csv", body: Buffer.from("a,b,c\n1,2,3\n4,5\n6,7,8\n"), code: "ragged_rows", text: /row 2 has 2 fields/ },
      { name: "bomb.csv.gz", body: bomb, code: "gzip_too_large", text: /1\.0 MiB|1048576|1 MiB/ },
    ];
    const ids = await Promise.all(cases.map(async (c) => {
      const r = await upload(server, projectId, c.name, c.body);
      expect(r.status).toBe(201);
      return r.body.datasetId!;
    }));
    for (const [i, c] of cases.entries()) {
      const d = await waitForProfile(server, ids[i]!);
      expect(d.status, c.name).toBe("failed");
      expect(d.error?.code, c.name).toBe(c.code);
      expect(d.error?.message, c.name).toMatch(c.text);
      // Not usable by an experiment: no table format, and the split refuses it.
      expect(d.datasetFormat).toBeNull();
      await expect(server.client.datasets.split.mutate({ datasetId: ids[i]!, target: "a", task: "regression", strategy: "random" })).rejects.toMatchObject({
        data: { code: "BAD_REQUEST" },
      });
    }
    expect(existsSync(path.join(home.workerHome, "incoming"))).toBe(true);
    expect(incomingLeftovers(home)).toEqual([]);
  });
});
