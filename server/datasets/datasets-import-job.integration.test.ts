// Registering by path waits for the worker's import job, not for one control call: a copy
// that takes longer than the control-call timeout (TRAINYARD_WORKER_TIMEOUT_MS) still
// succeeds, leaves no partial copy, and does not mark This computer unreachable. The
// worker's `testFaults.importChunkDelayMs` slows the copy per 1 MiB; everything is real
// (server over HTTP, worker processes).
import crypto from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTestHome, startTestServer, type TestHome, type TestServer } from "@/server/testing/server-harness";
import { realDataTraining } from "./test-support";

const TIMEOUT_MS = 6000;
const CHUNK_DELAY_MS = 3000;

let home: TestHome;
let server: TestServer;
let dataDir: string;

beforeAll(async () => {
  home = makeTestHome();
  dataDir = path.join(home.root, "user-data");
  mkdirSync(dataDir);
  // Set before the server starts; the server merges its own fields into this file and keeps it.
  mkdirSync(home.workerHome, { recursive: true });
  writeFileSync(path.join(home.workerHome, "config.json"), JSON.stringify({ testFaults: { importChunkDelayMs: CHUNK_DELAY_MS } }));
  server = await startTestServer({ home, env: { TRAINYARD_TRAINING_DIR: realDataTraining(home), TRAINYARD_WORKER_TIMEOUT_MS: String(TIMEOUT_MS) } });
});
afterAll(async () => {
  await server?.stop();
});

describe("register by path as a worker job", () => {
  it("a copy longer than the control-call timeout succeeds and the computer stays reachable", async () => {
    // 3 MiB + a bit: four chunks, each followed by a 3 s pause: ~12 s, twice the timeout.
    const rows = ["a,b", ...Array.from({ length: 400_000 }, (_, i) => `${i},${(i * 7) % 13}`)].join("\n") + "\n";
    const file = path.join(dataDir, "big.csv");
    writeFileSync(file, rows);
    expect(Buffer.byteLength(rows)).toBeGreaterThan(3 * 1024 * 1024);
    const s = await server.client.settings.get.query();
    await server.client.settings.update.mutate({ revision: s.revision, values: { ...s.values, allowedRoots: [dataDir] } });
    const projectId = (await server.client.projects.create.mutate({ name: "Slow copy" })).id;

    const t0 = Date.now();
    const r = await server.client.datasets.registerPath.mutate({ projectId, path: file });
    expect(Date.now() - t0).toBeGreaterThan(TIMEOUT_MS);
    expect(r.snapshotSha256).toBe(crypto.createHash("sha256").update(readFileSync(file)).digest("hex"));
    expect(r.bytes).toBe(Buffer.byteLength(rows));

    const local = (await server.client.targets.list.query()).find((t) => t.thisComputer)!;
    expect(local.unreachableSince).toBeNull();
    // The worker ran it as an import job, which left no partial copy.
    const receipts = readdirSync(path.join(home.workerHome, "receipts"))
      .filter((f) => f.endsWith(".json"))
      .map((f) => JSON.parse(readFileSync(path.join(home.workerHome, "receipts", f), "utf8")) as { kind: string; state: string; jobDir: string });
    const imports = receipts.filter((x) => x.kind === "import");
    expect(imports.map((x) => x.state)).toEqual(["succeeded"]);
    expect(existsSync(path.join(imports[0]!.jobDir, "work", "import.part"))).toBe(false);
  });
});
