// Files in and out of the worker store with real files: resumable, hash-verified put;
// peek/import confined to allowed roots (no '..', no symlink escape, no FIFO/dir);
// import refuses a file that changes during the copy; gc frees old job dirs and parts.
import { spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importReportOf } from "../../contracts/worker/responses";
import { fixtureEnv, importAndWait, makeHome, submitJob, waitForJob, type WorkerHome } from "../testing/harness";

let w: WorkerHome;
let root: string;
beforeAll(async () => {
  const probeHome = await makeHome();
  root = path.join(probeHome.home, "root");
  fs.mkdirSync(root);
  w = await makeHome({ allowedRoots: [root], capacity: { cpus: 2, ramGb: 8 } }, probeHome.home);
});
afterAll(() => w?.cleanup());

const sha = (b: Buffer) => crypto.createHash("sha256").update(b).digest("hex");

describe("store", () => {
  it("a put interrupted half-way resumes from the part's size", async () => {
    const data = crypto.randomBytes(300_000);
    const h = sha(data);
    fs.mkdirSync(path.join(w.home, "incoming"), { recursive: true });
    const part = path.join(w.home, "incoming", `${h}.part`);
    fs.writeFileSync(part, data.subarray(0, 123_456)); // the upload broke here
    const first = await w.control({ op: "put", sha256: h, bytes: data.length });
    expect(first).toMatchObject({ ok: true, complete: false, offset: 123_456 });
    fs.appendFileSync(part, data.subarray(first.offset));
    const done = await w.control({ op: "put", sha256: h, bytes: data.length });
    expect(done).toMatchObject({ ok: true, complete: true });
    expect(fs.readFileSync(done.path).equals(data)).toBe(true);
    expect(fs.statSync(done.path).mode & 0o777).toBe(0o444);
    expect(fs.existsSync(part)).toBe(false);
    expect((await w.control({ op: "put", sha256: h, bytes: data.length })).complete).toBe(true);
    const peek = await w.control({ op: "peek", sha256: h, maxBytes: 10 });
    expect(peek.bytes).toBe(data.length);
  });

  it("a put whose bytes do not match the hash is refused and the part deleted", async () => {
    const data = Buffer.from("the real bytes\n");
    const part = path.join(w.home, "incoming", `${sha(data)}.part`);
    fs.writeFileSync(part, Buffer.from("other bytes!!!\n"));
    const r = await w.control({ op: "put", sha256: sha(data), bytes: data.length });
    expect(r.error.code).toBe("hash_mismatch");
    expect(fs.existsSync(part)).toBe(false);
    expect(fs.existsSync(path.join(w.home, "store", sha(data).slice(0, 2), sha(data)))).toBe(false);
  });

  it("peek returns the first rows of a file inside an allowed root", async () => {
    const f = path.join(root, "table.csv");
    fs.writeFileSync(f, ["a,b", ...Array.from({ length: 100 }, (_, i) => `${i},${i * 2}`)].join("\n") + "\n");
    const r = await w.control({ op: "peek", path: f, maxRows: 3 });
    expect(r).toMatchObject({ ok: true, lines: ["a,b", "0,0", "1,2"], truncated: true });
  });

  it("peek and import refuse '..', symlink escapes, paths outside roots, FIFOs and directories", async () => {
    fs.symlinkSync("/etc/hostname", path.join(root, "escape"));
    spawnSync("mkfifo", [path.join(root, "fifo")]);
    fs.mkdirSync(path.join(root, "dir"), { recursive: true });
    const cases: Array<[string, string]> = [
      [`${root}/../config.json`, "path_not_allowed"], // `..` refused before any lookup
      [path.join(root, "escape"), "path_not_allowed"],
      ["/etc/hostname", "path_not_allowed"],
      ["table.csv", "path_not_allowed"],
      [path.join(root, "fifo"), "not_a_regular_file"],
      [path.join(root, "dir"), "not_a_regular_file"],
    ];
    for (const [p, code] of cases) {
      const peek = await w.control({ op: "peek", path: p });
      expect(peek.error?.code, `peek ${p}`).toBe(code);
      const imp = await w.control({ op: "import", opId: `refused-${p}`, path: p });
      expect(imp.error?.code, `import ${p}`).toBe(code);
    }
  });

  it("import snapshots a file into the store by its hash", async () => {
    const f = path.join(root, "snap.csv");
    fs.writeFileSync(f, "x,y\n1,2\n");
    const { started, receipt } = await importAndWait(w, f);
    expect(started).toMatchObject({ ok: true, created: true, receipt: { kind: "import" } });
    expect(receipt).toMatchObject({ state: "succeeded", outputSha256: sha(fs.readFileSync(f)) });
    const result = importReportOf(receipt!)!.import!;
    expect(result).toMatchObject({ sha256: sha(fs.readFileSync(f)), bytes: 8 });
    expect(fs.readFileSync(result.path, "utf8")).toBe("x,y\n1,2\n");
  });

  it("import detects a file that changes during the copy", async () => {
    const f = path.join(root, "growing.bin");
    fs.writeFileSync(f, Buffer.alloc(64 * 1024 * 1024, 7));
    const writer = spawn("python3", ["-c", `import time\nf=open(${JSON.stringify(f)},"ab")\nwhile True:\n  f.write(b"z"*65536); f.flush(); time.sleep(0.005)`], { stdio: "ignore" });
    try {
      await new Promise((r) => setTimeout(r, 100)); // let the writer start appending
      const { receipt } = await importAndWait(w, f);
      expect(receipt).toMatchObject({ state: "failed", reason: "bad_input", outputSha256: null });
      expect(importReportOf(receipt!)?.error?.code).toBe("file_changed");
      expect(fs.readdirSync(path.join(receipt!.jobDir, "work"))).toEqual([]);
    } finally {
      writer.kill("SIGKILL");
    }
  });

  it("gc removes old terminal job dirs and stale parts, and a dry run only reports", async () => {
    await fixtureEnv();
    const s = await submitJob(w, "quick");
    const r = await waitForJob(w, s.receipt.jobId);
    const stale = path.join(w.home, "incoming", `${"e".repeat(64)}.part`);
    fs.writeFileSync(stale, "old");
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    fs.utimesSync(stale, twoDaysAgo, twoDaysAgo);
    const dry = await w.control({ op: "gc", dryRun: true, olderThanDays: 0 });
    expect(dry.jobs).toContain(r.jobId);
    expect(dry.incoming).toContain(path.basename(stale));
    expect(fs.existsSync(r.jobDir)).toBe(true);
    const real = await w.control({ op: "gc", dryRun: false, olderThanDays: 0 });
    expect(real.freedBytes).toBeGreaterThan(0);
    expect(fs.existsSync(r.jobDir)).toBe(false);
    expect(fs.existsSync(stale)).toBe(false);
    expect((await w.control({ op: "inspect", jobId: r.jobId })).receipt.gcAt).not.toBeNull();
  });
});
