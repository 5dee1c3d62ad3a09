/**
 * The worker protocol over a real OpenSSH server (Debian's sshd on a loopback port, a
 * generated host key, a generated client key): a probe through SSH, strict host key
 * checks, refusal of unsafe worker paths, and an unreachable server.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WORKER_PROTOCOL } from "@/worker/protocol";
import { freePort, REPO, TEST_ENVS_DIR, waitFor } from "@/server/testing/server-harness";
import { WorkerUnreachable } from "../transport";
import { parseKnownHosts, verifyHostKey } from "./known-hosts";
import { HostKeyRejected, sshTransport } from "./ssh-transport";

const dir = mkdtempSync(path.join(os.tmpdir(), "trainyard-sshd-"));
const keygen = (file: string) => {
  const r = spawnSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", file]);
  if (r.status !== 0) throw new Error(`ssh-keygen failed: ${r.stderr}`);
  return readFileSync(`${file}.pub`, "utf8").trim();
};
let sshd: ChildProcess;
let port: number;
let hostPub: string;
let clientKey: Buffer;
const workerDir = path.join(dir, "server-home", "trainyard");

function transport(knownHosts: string, opts: { workerDir?: string; timeoutMs?: number } = {}) {
  const entries = parseKnownHosts(knownHosts);
  return sshTransport({
    label: "test server",
    endpoint: { host: "127.0.0.1", port, user: os.userInfo().username, identityFiles: [] },
    workerDir: opts.workerDir ?? workerDir,
    privateKey: clientKey,
    verifyHostKey: (type, key) => verifyHostKey(entries, "127.0.0.1", port, type, key),
    timeoutMs: opts.timeoutMs ?? 30_000,
  });
}
const knownLine = () => `[127.0.0.1]:${port} ${hostPub.split(" ").slice(0, 2).join(" ")}`;

beforeAll(async () => {
  const build = (await import(path.join(REPO, "scripts", "build-worker.mjs"))) as { buildWorker: () => Promise<{ entry: string }> };
  const { entry } = await build.buildWorker();
  // The "server": the worker bundle in its own directory, its home sharing the recipe environments.
  mkdirSync(path.join(workerDir, "home"), { recursive: true });
  cpSync(path.dirname(entry), workerDir, { recursive: true });
  writeFileSync(
    path.join(workerDir, "home", "config.json"),
    JSON.stringify({ trainingDir: path.join(REPO, "training"), envsDir: TEST_ENVS_DIR }),
  );
  hostPub = keygen(path.join(dir, "host_key"));
  const clientPub = keygen(path.join(dir, "client_key"));
  clientKey = readFileSync(path.join(dir, "client_key"));
  writeFileSync(path.join(dir, "authorized_keys"), `${clientPub}\n`);
  port = await freePort();
  writeFileSync(
    path.join(dir, "sshd_config"),
    [
      `ListenAddress 127.0.0.1`,
      `Port ${port}`,
      `HostKey ${path.join(dir, "host_key")}`,
      `AuthorizedKeysFile ${path.join(dir, "authorized_keys")}`,
      `PidFile ${path.join(dir, "sshd.pid")}`,
      "UsePAM no",
      "StrictModes no",
      "PasswordAuthentication no",
      "KbdInteractiveAuthentication no",
      "PermitRootLogin prohibit-password",
    ].join("\n"),
  );
  mkdirSync("/run/sshd", { recursive: true });
  sshd = spawn("/usr/sbin/sshd", ["-D", "-e", "-f", path.join(dir, "sshd_config")], { stdio: "ignore" });
  await waitFor("sshd to listen", () =>
    new Promise<boolean>((resolve) => {
      const s = net.connect(port, "127.0.0.1", () => (s.end(), resolve(true)));
      s.on("error", () => resolve(false));
    }),
  );
});

afterAll(() => {
  sshd?.kill("SIGTERM");
});

describe("the worker over SSH", () => {
  it("answers a probe through one exec, with the host key checked", async () => {
    const probe = await transport(knownLine()).exec({ protocol: WORKER_PROTOCOL, op: "probe" });
    expect(probe.workerProtocol).toBe(WORKER_PROTOCOL);
    expect(probe.workerId).toMatch(/\S/);
    // The worker id is created on first run and stays: two probes, one identity.
    const again = await transport(knownLine()).exec({ protocol: WORKER_PROTOCOL, op: "probe" });
    expect(again.workerId).toBe(probe.workerId);
  });

  it("refuses an unknown host key and shows the fingerprint ssh-keygen shows", async () => {
    const err = await transport("").exec({ protocol: WORKER_PROTOCOL, op: "probe" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HostKeyRejected);
    const fp = spawnSync("ssh-keygen", ["-lf", path.join(dir, "host_key.pub")], { encoding: "utf8" }).stdout.split(" ")[1];
    expect((err as HostKeyRejected).verdict).toEqual({ status: "unknown", fingerprint: fp });
    expect((err as Error).message).toContain(fp);
  });

  it("blocks a changed host key", async () => {
    const other = keygen(path.join(dir, "other_key")).split(" ").slice(0, 2).join(" ");
    const err = await transport(`[127.0.0.1]:${port} ${other}`).exec({ protocol: WORKER_PROTOCOL, op: "probe" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HostKeyRejected);
    expect((err as HostKeyRejected).verdict.status).toBe("changed");
  });

  it("refuses a worker path that would be a shell fragment, before connecting", () => {
    const marker = path.join(dir, "pwned");
    expect(() => transport(knownLine(), { workerDir: `/tmp/x; touch ${marker}` })).toThrow(/letters, digits/);
    expect(() => transport(knownLine(), { workerDir: "/tmp/$(touch /tmp/pwned2)" })).toThrow();
    expect(existsSync(marker)).toBe(false);
  });

  it("says unreachable when the server does not answer", async () => {
    sshd.kill("SIGTERM");
    await waitFor("sshd to stop", () => sshd.exitCode !== null || sshd.signalCode !== null);
    const err = await transport(knownLine(), { timeoutMs: 5000 }).exec({ protocol: WORKER_PROTOCOL, op: "probe" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkerUnreachable);
  });
});
