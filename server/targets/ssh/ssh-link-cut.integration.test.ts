/**
 * A server behind a link that can be cut: sshd in its own network namespace, reached
 * over a veth pair (`ip netns`, root only). With the link down, a running job finishes
 * on the server regardless, shows "unreachable since …" here, and is reconciled from
 * the remote receipt when the link returns, never launched again; a cancel made while
 * the link is down waits ("Cancellation pending") and is delivered when it returns; an
 * upload cut half-way never becomes a stored blob and resumes from where it stopped.
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { WORKER_PROTOCOL } from "@/contracts/worker";
import { admitFixtureJob, fixtureInput, isProcessAlive, pidOf, RECIPE, readyRecipe, runCount, waitForState } from "@/server/testing/controller-fixtures";
import { waitFor } from "@/server/testing/server-harness";
import { sshLabForFile } from "@/server/testing/ssh-lab";
import { directConnectOptions } from "@/server/testing/sshd-harness";
import { WorkerUnreachable } from "../transport";
import { openSftp, statOrNull, uploadFrom } from "./sftp";
import { sshTransport } from "./ssh-transport";

// Needs root and iproute2 (`ip netns`): without them these tests fail and say so rather than checking nothing.
const { home, server, sshd, lab } = sshLabForFile({
  name: "Cut server",
  netns: `tynet${process.pid % 1000}`,
  env: { TRAINYARD_UNREACHABLE_MINUTES: "0.1", TRAINYARD_WORKER_TIMEOUT_MS: "6000" },
  prepare: async ({ server, lab }) => {
    await readyRecipe(server);
    const res = await server.client.targets.prepareRecipe.mutate({ targetId: lab.id, recipe: RECIPE });
    if (!res.ready && res.job) await waitForState(server, res.job.id, ["succeeded"], 180_000);
  },
});

/** A fixture job admitted on the cut server, once its recipe runs there. */
async function runningJob(name: string) {
  const input = fixtureInput(home, name);
  const job = await admitFixtureJob(server, lab.id, input);
  await waitForState(server, job.id, ["running"]);
  const pid = await waitFor("the recipe pid", () => pidOf(input.pidFile));
  return { input, job, pid };
}

/** Runs `fn` with the link down, and brings the link back even when `fn` fails. */
async function whileLinkIsCut(fn: () => Promise<void>): Promise<void> {
  sshd.cutLink();
  try {
    await fn();
  } finally {
    sshd.restoreLink();
  }
}

describe("a server whose network link is cut", { timeout: 180_000 }, () => {
  it("a running job finishes on the server, shows unreachable meanwhile, and is reconciled when the link returns", async () => {
    const { input, job, pid } = await runningJob("cut-run");
    await whileLinkIsCut(async () => {
      writeFileSync(input.releaseFile, "go");
      await waitFor("the job to end on the server", () => !isProcessAlive(pid), 60_000);
      const away = await waitFor("the job to be unknown while the server cannot be reached", async () => {
        const j = await server.client.jobs.get.query({ id: job.id });
        return j.state === "unknown" ? j : undefined;
      }, 90_000);
      expect(away.unreachableSince).not.toBeNull();
      const target = await server.client.targets.get.query({ id: lab.id });
      expect(target.unreachableSince).not.toBeNull();
    });
    expect((await waitForState(server, job.id, ["succeeded", "failed", "cancelled"], 90_000)).state).toBe("succeeded");
    expect(runCount(input.runLog)).toBe(1);
  });

  it("a cancel made while the link is down is delivered when it returns", async () => {
    const { job, pid } = await runningJob("cut-cancel");
    await whileLinkIsCut(async () => {
      const pending = await server.client.jobs.cancel.mutate({ id: job.id });
      expect(pending.cancelRequestedAt).not.toBeNull();
      await waitFor("the job to show unreachable", async () => (await server.client.jobs.get.query({ id: job.id })).unreachableSince, 60_000);
      expect(isProcessAlive(pid)).toBe(true);
    });
    expect((await waitForState(server, job.id, ["cancelled", "succeeded", "failed"], 90_000)).state).toBe("cancelled");
    expect(isProcessAlive(pid)).toBe(false);
  });

  it("an upload cut half-way is never stored, and resumes from the part's size", async () => {
    const file = path.join(home.scratch, "big.bin");
    writeFileSync(file, randomBytes(48 * 1024 * 1024));
    const sha256 = createHash("sha256").update(readFileSync(file)).digest("hex");
    const bytes = 48 * 1024 * 1024;
    const opts = directConnectOptions(sshd, "cut server", 8000);
    const worker = sshTransport({ ...opts, workerDir: lab.workerDir, nodePath: process.execPath });
    const part = `${lab.workerDir}/home/incoming/${sha256}.part`;

    const s = await openSftp(opts);
    let sent = 0;
    let cut = false;
    const err = await uploadFrom(s, file, part, 0, (n) => {
      sent += n;
      if (!cut && sent > 4 * 1024 * 1024) {
        cut = true;
        sshd.cutLink();
      }
    }).then(() => null, (e: unknown) => e);
    s.close();
    sshd.restoreLink();
    expect(err).toBeInstanceOf(WorkerUnreachable);

    const half = await worker.exec({ protocol: WORKER_PROTOCOL, op: "put", sha256, bytes });
    expect(half.complete).toBe(false);
    expect(half.offset).toBeGreaterThan(0);
    expect(half.offset).toBeLessThan(bytes);
    expect(existsSync(path.join(lab.workerDir, "home", "store", sha256.slice(0, 2), sha256))).toBe(false);

    const again = await openSftp(opts);
    const before = (await statOrNull(again, part))!.size;
    let resent = 0;
    await uploadFrom(again, file, part, before, (n) => (resent += n));
    again.close();
    expect(resent).toBe(bytes - before);
    const done = await worker.exec({ protocol: WORKER_PROTOCOL, op: "put", sha256, bytes });
    expect(done.complete).toBe(true);
    const stored = readFileSync(path.join(lab.workerDir, "home", "store", sha256.slice(0, 2), sha256));
    expect(createHash("sha256").update(stored).digest("hex")).toBe(sha256);
  });
});
