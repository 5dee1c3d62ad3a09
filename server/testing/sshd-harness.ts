/**
 * A real OpenSSH server for tests: Debian's sshd on a free port, with a generated host
 * key and a generated client key (authorized for the current user), optionally inside
 * its own network namespace reached over a veth pair, so a test can cut the link.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { SshConnectOptions } from "@/server/targets/ssh/ssh-connection";
import { parseKnownHosts, verifyHostKey } from "@/server/targets/ssh/known-hosts";
import { pidsWhere } from "./proc-scan";
import { freePort, waitFor } from "./server-harness";

export interface TestSshd {
  dir: string;
  host: string;
  port: number;
  user: string;
  clientKeyPath: string;
  hostPublicKey: string;
  /** A known_hosts line for this server. */
  knownHostsLine(): string;
  /** How many logins the server has accepted so far (from its log). */
  acceptedLogins(): number;
  /** Kills every per-connection sshd process: open SSH connections drop, the listener stays. */
  killSessions(): number;
  /** Stops the listener and every session (like the machine going away). */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** netns servers only: take the link down / up. */
  cutLink(): void;
  restoreLink(): void;
  /** netns servers only: removes the namespace. */
  destroy(): Promise<void>;
}

export function keygen(file: string): string {
  const r = spawnSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", file]);
  if (r.status !== 0) throw new Error(`ssh-keygen failed: ${r.stderr}`);
  return readFileSync(`${file}.pub`, "utf8").trim();
}

function childrenOf(pid: number): number[] {
  // The parent pid is the second field after the command name, which may hold spaces or ")".
  return pidsWhere("stat", (stat) => Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid);
}

const ip = (...args: string[]) => execFileSync("ip", args, { stdio: "pipe" });

export function canUseNetns(): boolean {
  if (process.getuid?.() !== 0) return false;
  return spawnSync("ip", ["netns", "list"]).status === 0;
}

/** The first 10.213.<n>.0/30 from `start` that no interface of this machine has an address in. */
function freeSubnet(start: number): number {
  const used = execFileSync("ip", ["-o", "-4", "addr", "show"], { encoding: "utf8" });
  for (let i = 0; i < 250; i++) {
    const n = 1 + ((start + i) % 250);
    if (!used.includes(` 10.213.${n}.`)) return n;
  }
  throw new Error("every 10.213.<n>.0/30 test subnet is in use: remove the leftover test namespaces (ip netns list)");
}

/** `setEnv`: variables every session gets (sshd_config SetEnv), as a login node's profile would set them. */
export async function startSshd(opts: { netns?: string; setEnv?: Record<string, string> } = {}): Promise<TestSshd> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "trainyard-sshd-"));
  const hostPub = keygen(path.join(dir, "host_key"));
  const clientPub = keygen(path.join(dir, "client_key"));
  writeFileSync(path.join(dir, "authorized_keys"), `${clientPub}\n`);
  let host = "127.0.0.1";
  const port = opts.netns ? 22022 : await freePort();
  const ns = opts.netns;
  const vethHost = ns ? `ty${ns.slice(-8)}h` : "";
  if (ns) {
    // 10.213.<n>.0/30: host side .1, namespace side .2; a subnet no other namespace here uses
    // keeps test files that run side by side apart (scripts/run-integration.sh).
    const n = freeSubnet(Number.parseInt(ns.replace(/\D/g, "").slice(-3) || "1", 10));
    spawnSync("ip", ["netns", "del", ns]);
    spawnSync("ip", ["link", "del", vethHost]);
    ip("netns", "add", ns);
    ip("link", "add", vethHost, "type", "veth", "peer", "name", "eth-ty", "netns", ns);
    ip("addr", "add", `10.213.${n}.1/30`, "dev", vethHost);
    ip("link", "set", vethHost, "up");
    ip("-n", ns, "addr", "add", `10.213.${n}.2/30`, "dev", "eth-ty");
    ip("-n", ns, "link", "set", "eth-ty", "up");
    ip("-n", ns, "link", "set", "lo", "up");
    host = `10.213.${n}.2`;
  }
  writeFileSync(
    path.join(dir, "sshd_config"),
    [
      `ListenAddress ${host}`,
      `Port ${port}`,
      `HostKey ${path.join(dir, "host_key")}`,
      `AuthorizedKeysFile ${path.join(dir, "authorized_keys")}`,
      `PidFile ${path.join(dir, "sshd.pid")}`,
      "UsePAM no",
      "StrictModes no",
      "PasswordAuthentication no",
      "KbdInteractiveAuthentication no",
      "Subsystem sftp internal-sftp",
      "PermitRootLogin prohibit-password",
      // Dropped connections are noticed by the server too (the client uses keepalives).
      "ClientAliveInterval 5",
      "ClientAliveCountMax 2",
      ...Object.entries(opts.setEnv ?? {}).map(([k, v]) => `SetEnv ${k}=${v}`),
    ].join("\n"),
  );
  mkdirSync("/run/sshd", { recursive: true });
  let sshd: ChildProcess | null = null;
  const listening = () =>
    new Promise<boolean>((resolve) => {
      const s = net.connect(port, host, () => (s.end(), resolve(true)));
      s.on("error", () => resolve(false));
      s.setTimeout(1000, () => (s.destroy(), resolve(false)));
    });
  const start = async () => {
    const cmd = ns ? "ip" : "/usr/sbin/sshd";
    const args = ["-D", "-E", path.join(dir, "sshd.log"), "-f", path.join(dir, "sshd_config")];
    sshd = spawn(cmd, ns ? ["netns", "exec", ns, "/usr/sbin/sshd", ...args] : args, { stdio: "ignore" });
    await waitFor("sshd to listen", listening, 20_000);
  };
  // A stopped server has no sessions either: SIGTERM alone ends only the listener.
  const stop = async () => {
    const s = sshd;
    if (!s || s.exitCode !== null || s.signalCode !== null) return;
    killSessions();
    s.kill("SIGTERM");
    await waitFor("sshd to stop", () => s.exitCode !== null || s.signalCode !== null, 10_000);
  };
  const sshdPid = () => {
    try {
      return Number(readFileSync(path.join(dir, "sshd.pid"), "utf8"));
    } catch {
      return sshd?.pid ?? 0;
    }
  };
  const killSessions = () => {
    const kids = childrenOf(sshdPid());
    for (const k of kids) {
      try {
        process.kill(k, "SIGKILL");
      } catch {
        // already gone
      }
    }
    return kids.length;
  };
  await start();
  return {
    dir,
    host,
    port,
    user: os.userInfo().username,
    clientKeyPath: path.join(dir, "client_key"),
    hostPublicKey: hostPub.split(" ").slice(0, 2).join(" "),
    knownHostsLine() {
      return `[${host}]:${port} ${hostPub.split(" ").slice(0, 2).join(" ")}`;
    },
    acceptedLogins() {
      try {
        return readFileSync(path.join(dir, "sshd.log"), "utf8").split("\n").filter((l) => l.includes("Accepted publickey")).length;
      } catch {
        return 0;
      }
    },
    killSessions,
    stop,
    start,
    cutLink: () => ns && ip("link", "set", vethHost, "down"),
    restoreLink: () => ns && ip("link", "set", vethHost, "up"),
    async destroy() {
      await stop();
      if (ns) {
        spawnSync("ip", ["link", "del", vethHost]);
        spawnSync("ip", ["netns", "del", ns]);
      }
    },
  };
}

/** Connection options for code under test that talks to the test server directly (no app). */
export function directConnectOptions(sshd: TestSshd, label: string, timeoutMs = 30_000, knownHosts = sshd.knownHostsLine()): SshConnectOptions {
  const entries = parseKnownHosts(knownHosts);
  return {
    label,
    endpoint: { host: sshd.host, port: sshd.port, user: sshd.user, identityFiles: [sshd.clientKeyPath] },
    verifyHostKey: (type, key) => verifyHostKey(entries, sshd.host, sshd.port, type, key),
    timeoutMs,
  };
}
