/**
 * The worker protocol over a real OpenSSH server (Debian's sshd on a loopback port, a
 * generated host key, a generated client key): a probe through SSH, strict host key
 * checks, refusal of unsafe worker paths, and an unreachable server.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WORKER_PROTOCOL } from "@/contracts/worker";
import { buildWorkerBundle, REPO, TEST_ENVS_DIR } from "@/server/testing/server-harness";
import { directConnectOptions, keygen, startSshd, type TestSshd } from "@/server/testing/sshd-harness";
import { WorkerUnreachable } from "../transport";
import { HostKeyRejected, sshTransport } from "./ssh-transport";

const dir = mkdtempSync(path.join(os.tmpdir(), "trainyard-sshd-"));
const workerDir = path.join(dir, "server-home", "trainyard");
let sshd: TestSshd;

function transport(knownHosts: string, opts: { workerDir?: string; timeoutMs?: number } = {}) {
  return sshTransport({ ...directConnectOptions(sshd, "test server", opts.timeoutMs, knownHosts), workerDir: opts.workerDir ?? workerDir, nodePath: process.execPath });
}

beforeAll(async () => {
  const entry = await buildWorkerBundle();
  // The "server": the worker bundle in its own directory, its home sharing the recipe environments.
  mkdirSync(path.join(workerDir, "home"), { recursive: true });
  cpSync(path.dirname(entry), workerDir, { recursive: true });
  writeFileSync(path.join(workerDir, "home", "config.json"), JSON.stringify({ trainingDir: path.join(REPO, "training"), envsDir: TEST_ENVS_DIR }));
  sshd = await startSshd();
});

afterAll(() => sshd?.stop());

describe("the worker over SSH", () => {
  it("answers a probe through one exec, with the host key checked", async () => {
    const probe = await transport(sshd.knownHostsLine()).exec({ protocol: WORKER_PROTOCOL, op: "probe" });
    expect(probe.workerProtocol).toBe(WORKER_PROTOCOL);
    expect(probe.workerId).toMatch(/\S/);
    // The worker id is created on first run and stays: two probes, one identity.
    const again = await transport(sshd.knownHostsLine()).exec({ protocol: WORKER_PROTOCOL, op: "probe" });
    expect(again.workerId).toBe(probe.workerId);
  });

  it("refuses an unknown host key and shows the fingerprint ssh-keygen shows", async () => {
    const err = await transport("").exec({ protocol: WORKER_PROTOCOL, op: "probe" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HostKeyRejected);
    const fp = spawnSync("ssh-keygen", ["-lf", path.join(sshd.dir, "host_key.pub")], { encoding: "utf8" }).stdout.split(" ")[1];
    expect((err as HostKeyRejected).verdict).toEqual({ status: "unknown", fingerprint: fp });
    expect((err as Error).message).toContain(fp);
  });

  it("blocks a changed host key", async () => {
    const other = keygen(path.join(dir, "other_key")).split(" ").slice(0, 2).join(" ");
    const err = await transport(`[${sshd.host}]:${sshd.port} ${other}`).exec({ protocol: WORKER_PROTOCOL, op: "probe" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HostKeyRejected);
    expect((err as HostKeyRejected).verdict.status).toBe("changed");
  });

  it("refuses a worker path that would be a shell fragment, before connecting", () => {
    const marker = path.join(dir, "pwned");
    expect(() => transport(sshd.knownHostsLine(), { workerDir: `/tmp/x; touch ${marker}` })).toThrow(/letters, digits/);
    expect(() => transport(sshd.knownHostsLine(), { workerDir: "/tmp/$(touch /tmp/pwned2)" })).toThrow();
    expect(existsSync(marker)).toBe(false);
  });

  it("says unreachable when the server does not answer", async () => {
    await sshd.stop();
    const err = await transport(sshd.knownHostsLine(), { timeoutMs: 5000 }).exec({ protocol: WORKER_PROTOCOL, op: "probe" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkerUnreachable);
  });
});
