/**
 * The long-lived control session behind This computer's quick worker calls, with the real
 * worker bundle: many calls share one process and each gets its own answer, in order,
 * when they are sent at once; a refusal stays a typed refusal; a session killed with calls
 * in it fails those calls as unreachable (never as a job failure) and the next call starts
 * a fresh one; a quiet session ends by itself; slow operations (a large put among them)
 * still get their own process, and a small put goes through the session.
 */
import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WORKER_PROTOCOL } from "@/contracts/worker";
import { makeHome, submitJob, waitFor, type WorkerHome } from "@/worker/testing/harness";
import { localTransport, WorkerRefused, WorkerUnreachable, type WorkerTransport } from "./transport";

let w: WorkerHome;
let t: WorkerTransport;

/** Pids of `control --serve` processes for this test's worker home. */
function sessionPids(): number[] {
  const out = execFileSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" });
  return out
    .split("\n")
    .filter((l) => l.includes(" control --home " + w.home + " --serve"))
    .map((l) => Number(l.trim().split(/\s+/)[0]));
}

/** Writes `bytes` as the store's incoming part (as an upload does) and puts it. */
function putPart(bytes: Buffer) {
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  mkdirSync(path.join(w.home, "incoming"), { recursive: true });
  writeFileSync(path.join(w.home, "incoming", `${sha256}.part`), bytes);
  return t.exec({ protocol: WORKER_PROTOCOL, op: "put", sha256, bytes: bytes.length });
}

beforeAll(async () => {
  w = await makeHome({ capacity: { cpus: 2, ramGb: 4 } });
  t = localTransport({ label: "This computer", bundlePath: w.entry, workerHome: w.home, timeoutMs: 20_000 });
});
afterAll(() => {
  for (const pid of sessionPids()) process.kill(pid, "SIGKILL");
  w?.cleanup();
});

describe("the control session", () => {
  it("answers calls sent at once, each with its own answer, from one process", async () => {
    const ids: string[] = [];
    for (let n = 0; n < 3; n++) ids.push(((await submitJob(w, "sleepy", { seconds: 0.2 })) as { receipt: { jobId: string } }).receipt.jobId);
    const receipts = await Promise.all([...ids, ...ids].map((jobId) => t.exec({ protocol: WORKER_PROTOCOL, op: "inspect", jobId })));
    expect(receipts.map((r) => r.receipt.jobId)).toEqual([...ids, ...ids]);
    expect(sessionPids()).toHaveLength(1);

    const missing = await t.exec({ protocol: WORKER_PROTOCOL, op: "inspect", jobId: "no-such-job" }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(WorkerRefused);
    expect(missing).toMatchObject({ code: "not_found" });
    // The refusal did not end the session.
    expect((await t.exec({ protocol: WORKER_PROTOCOL, op: "list" })).receipts.length).toBeGreaterThanOrEqual(3);
    expect(sessionPids()).toHaveLength(1);
  });

  it("a session killed with calls in it fails them as unreachable, and the next call gets a fresh one", async () => {
    const [first] = sessionPids();
    expect(first).toBeDefined();
    // A `list` in flight while the process dies.
    const inFlight = t.exec({ protocol: WORKER_PROTOCOL, op: "list" }).catch((e: unknown) => e);
    process.kill(first!, "SIGKILL");
    const err = await inFlight;
    // It may have answered before the signal landed; if not, it is unreachable, never anything else.
    if (err instanceof Error) expect(err).toBeInstanceOf(WorkerUnreachable);
    await waitFor("the killed session to be gone", () => !sessionPids().includes(first!), 10_000);
    // Gone from ps is not yet seen by this process (its exit event may still be on the way,
    // on a loaded machine): a call sent in that moment is unreachable too, and the next is
    // answered by a fresh session.
    const answered = await waitFor("a call answered after the kill", async () => {
      const r = await t.exec({ protocol: WORKER_PROTOCOL, op: "list" }).catch((e: unknown) => e);
      if (r instanceof Error && !(r instanceof WorkerUnreachable)) throw r;
      return r instanceof Error ? undefined : (r as { receipts: unknown[] });
    }, 10_000);
    expect(answered.receipts.length).toBeGreaterThanOrEqual(3);
    const [second] = sessionPids();
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
  });

  it("a quiet session ends by itself, and slow operations never use it", async () => {
    await waitFor("the idle session to end", () => sessionPids().length === 0, 30_000, 250);
    const probe = await t.exec({ protocol: WORKER_PROTOCOL, op: "probe" });
    expect(probe.capacity.cpus).toBe(2);
    expect(sessionPids()).toHaveLength(0);
    // A put over 16 MiB hashes for a while: its own process too, and it is stored.
    const large = await putPart(Buffer.alloc(17 * 1024 * 1024, 7));
    expect(large).toMatchObject({ complete: true });
    expect(sessionPids()).toHaveLength(0);
  });

  it("a small put (an upload, an on-demand prediction's rows) is stored through the session", async () => {
    const small = await putPart(Buffer.from("a,b\n1,2\n"));
    expect(small).toMatchObject({ complete: true });
    expect(readFileSync(small.path!, "utf8")).toBe("a,b\n1,2\n");
    expect(sessionPids()).toHaveLength(1);
  });

  it("the worker's --serve answers each line in order, a bad line with bad_request, and ends with its input", async () => {
    const child = spawn(process.execPath, [w.entry, "control", "--home", w.home, "--serve"], { stdio: ["pipe", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString("utf8")));
    const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
    child.stdin.end([JSON.stringify({ protocol: WORKER_PROTOCOL, op: "list" }), "{not json", JSON.stringify({ protocol: 99, op: "list" })].join("\n") + "\n");
    expect(await closed).toBe(0);
    const answers = out.trim().split("\n").map((l) => JSON.parse(l) as { ok: boolean; error?: { code: string } });
    expect(answers.map((a) => a.ok)).toEqual([true, false, false]);
    expect(answers.slice(1).map((a) => a.error?.code)).toEqual(["bad_request", "protocol_mismatch"]);
  });
});
