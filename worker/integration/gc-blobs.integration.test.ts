// gc naming store blobs (how the controller deletes a dataset's snapshot): exactly those
// blobs go, whatever their age; one an active job reads stays until that job ends; nothing
// else in the home (job folders, parts, other blobs) is touched. Real worker, real job.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeHome, submitJob, waitForJob, type WorkerHome } from "../testing/harness";

let w: WorkerHome;
beforeAll(async () => {
  w = await makeHome({ capacity: { cpus: 2, ramGb: 8 } });
});
afterAll(() => w?.cleanup());

const blobOf = (sha: string) => path.join(w.home, "store", sha.slice(0, 2), sha);

async function putBlob(text: string): Promise<string> {
  const data = Buffer.from(text);
  const sha = crypto.createHash("sha256").update(data).digest("hex");
  fs.mkdirSync(path.join(w.home, "incoming"), { recursive: true });
  fs.writeFileSync(path.join(w.home, "incoming", `${sha}.part`), data);
  expect(await w.control({ op: "put", sha256: sha, bytes: data.length })).toMatchObject({ ok: true, complete: true });
  return sha;
}

describe("gc with named blobs", () => {
  it("removes only the named blobs, keeps one an active job reads, and says what became of each", async () => {
    const read = await putBlob("a,b\n1,2\n");
    const unused = await putBlob("c,d\n3,4\n");
    const bystander = await putBlob("e,f\n5,6\n");
    const absent = "0".repeat(64);
    const done = await waitForJob(w, (await submitJob(w, "quick")).receipt.jobId);
    const stalePart = path.join(w.home, "incoming", `${"e".repeat(64)}.part`);
    fs.writeFileSync(stalePart, "old");
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    fs.utimesSync(stalePart, twoDaysAgo, twoDaysAgo);
    const running = await submitJob(w, "sleepy", { seconds: 60, file: `sha256:${read}` });
    expect(running.ok).toBe(true);

    const res = await w.control({ op: "gc", dryRun: false, olderThanDays: 0, blobs: [read, unused, absent] });
    expect(res).toMatchObject({ ok: true, jobs: [], incoming: [], blobs: [unused] });
    expect(res.named).toEqual([
      { sha256: read, outcome: "in_use" },
      { sha256: unused, outcome: "removed" },
      { sha256: absent, outcome: "absent" },
    ]);
    expect(res.freedBytes).toBe(8);
    expect(fs.existsSync(blobOf(unused))).toBe(false);
    expect(fs.existsSync(blobOf(read))).toBe(true);
    // Nothing it was not asked about, even with olderThanDays 0.
    expect(fs.existsSync(blobOf(bystander))).toBe(true);
    expect(fs.existsSync(done.jobDir)).toBe(true);
    expect(fs.existsSync(stalePart)).toBe(true);

    await w.control({ op: "cancel", jobId: running.receipt.jobId });
    await waitForJob(w, running.receipt.jobId);
    const after = await w.control({ op: "gc", dryRun: false, blobs: [read] });
    expect(after.named).toEqual([{ sha256: read, outcome: "removed" }]);
    expect(fs.existsSync(blobOf(read))).toBe(false);
    // Stored again later, it is a fresh blob that verifies like any other.
    expect(await putBlob("a,b\n1,2\n")).toBe(read);
    expect((await w.control({ op: "peek", sha256: read, maxBytes: 10 })).bytes).toBe(8);
  });

  it("refuses a name that is not a SHA-256 before touching the store", async () => {
    const res = await w.control({ op: "gc", dryRun: false, blobs: ["../../etc/passwd"] });
    expect(res.ok).toBe(false);
    expect(res.error.code).toBe("bad_request");
  });
});
