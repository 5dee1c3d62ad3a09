// The SSH tests' common ground: a data home, a test sshd (in its own network namespace
// when the link must be cut), a server, and the sshd enrolled as a training computer,
// made once per file and taken down after it.
import { afterAll, beforeAll } from "vitest";
import { standIn } from "@/tests/support/before-all-value";
import { makeTestHome, startTestServer, type TestHome, type TestServer } from "./server-harness";
import { enrollTestComputer } from "./ssh-computer";
import { canUseNetns, startSshd, type TestSshd } from "./sshd-harness";

export interface SshLab {
  home: TestHome;
  server: TestServer;
  sshd: TestSshd;
  /** The enrolled computer. */
  lab: { id: string; workerDir: string };
}

export interface SshLabOptions {
  /** The computer's name in Trainyard. */
  name: string;
  /** The server's extra settings. */
  env: Record<string, string>;
  /** Puts the sshd in this network namespace (root only), so its link can be cut. */
  netns?: string;
  /** Runs once the computer is enrolled (e.g. to prepare a recipe on it). */
  prepare?: (lab: SshLab) => Promise<void>;
}

export function sshLabForFile(opts: SshLabOptions): SshLab {
  let made: SshLab | undefined;
  let sshd: TestSshd | undefined;
  let server: TestServer | undefined;
  beforeAll(async () => {
    // Without them the tests fail and say so, rather than checking nothing.
    if (opts.netns && !canUseNetns()) throw new Error("these tests put an sshd in its own network namespace: they need root and iproute2 (ip netns)");
    const home = makeTestHome();
    sshd = await startSshd(opts.netns ? { netns: opts.netns } : {});
    server = await startTestServer({ home, env: opts.env });
    const lab = await enrollTestComputer(server, sshd, opts.name);
    made = { home, server, sshd, lab };
    await opts.prepare?.(made);
  }, 400_000);
  afterAll(async () => {
    await server?.stop();
    // destroy is stop, plus removing the network namespace where there is one.
    await sshd?.destroy();
  });
  return {
    home: standIn("the test home", () => made?.home),
    server: standIn("the test server", () => made?.server),
    sshd: standIn("the test sshd", () => made?.sshd),
    lab: standIn("the enrolled computer", () => made?.lab),
  };
}
