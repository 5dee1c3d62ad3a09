/**
 * SSH training computers through the real server, a real sshd on loopback (its own
 * worker directory standing in for the server) and the real worker bundle: enroll,
 * Test access with the host key accepted explicitly, Set up over SFTP, jobs that survive
 * a killed SSH connection, cancel while connected and while the server is down, two
 * aliases of one worker sharing its ledger, injection attempts refused, and a changed
 * host key blocking the computer. Recipe environments are shared with This computer.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admitFixtureJob, fixtureInput, isProcessAlive, pidOf, RECIPE, readyRecipe, runCount, waitForState } from "@/server/testing/controller-fixtures";
import { makeTestHome, startTestServer, TEST_ENVS_DIR, waitFor, type TestHome, type TestServer } from "@/server/testing/server-harness";
import { keygen, startSshd, type TestSshd } from "@/server/testing/sshd-harness";

let home: TestHome;
let server: TestServer;
let sshd: TestSshd;
let lab: string; // target id
const serverSide = mkdtempSync(path.join(os.tmpdir(), "trainyard-remote-"));
const workerDir = path.join(serverSide, "trainyard");
const sshConfig = path.join(serverSide, "ssh_config");

const fingerprintOf = (pubFile: string) => spawnSync("ssh-keygen", ["-lf", pubFile], { encoding: "utf8" }).stdout.split(" ")[1] ?? "";
const errorOf = (p: Promise<unknown>) => p.then(() => null, (e: Error) => e);

async function readyOn(targetId: string) {
  const res = await server.client.targets.prepareRecipe.mutate({ targetId, recipe: RECIPE });
  if (!res.ready && res.job) await waitForState(server, res.job.id, ["succeeded"], 180_000);
}

beforeAll(async () => {
  home = makeTestHome();
  sshd = await startSshd();
  // The "server" keeps its recipe environments in the folder This computer uses: nothing is built twice.
  mkdirSync(path.join(workerDir, "home"), { recursive: true });
  writeFileSync(path.join(workerDir, "home", "config.json"), JSON.stringify({ envsDir: TEST_ENVS_DIR }));
  writeFileSync(path.join(serverSide, "known_hosts"), `${sshd.knownHostsLine()}\n`);
  writeFileSync(
    sshConfig,
    [
      "Host lab-alias",
      `  HostName ${sshd.host}`,
      `  Port ${sshd.port}`,
      `  User ${sshd.user}`,
      `  IdentityFile ${sshd.clientKeyPath}`,
      `  UserKnownHostsFile ${path.join(serverSide, "known_hosts")}`,
      "Host jumpy",
      "  HostName 10.0.0.9",
      "  ProxyCommand touch /tmp/trainyard-proxy-pwned",
      "",
    ].join("\n"),
  );
  server = await startTestServer({
    home,
    env: { TRAINYARD_SSH_CONFIG: sshConfig, TRAINYARD_UNREACHABLE_MINUTES: "0.1", TRAINYARD_WORKER_TIMEOUT_MS: "15000" },
  });
  await readyRecipe(server);
}, 300_000);

afterAll(async () => {
  await server?.stop();
  await sshd?.stop();
});

describe("an SSH training computer", { timeout: 180_000 }, () => {
  it("is enrolled, its unknown host key is shown and accepted explicitly, then Set up installs a verified worker", async () => {
    const added = await server.client.targets.addServer.mutate({
      name: "Lab server",
      connection: { mode: "manual", host: sshd.host, port: sshd.port, user: sshd.user, keyPath: sshd.clientKeyPath },
      workerDir,
      nodePath: process.execPath,
    });
    lab = added.id;
    expect(added).toMatchObject({ kind: "ssh", revision: 1, connection: { host: sshd.host, port: sshd.port, workerDir } });

    const refused = await server.client.targets.testAccess.mutate({ id: lab });
    const fingerprint = fingerprintOf(path.join(sshd.dir, "host_key.pub"));
    expect(refused.hostKeyRefused).toContain(fingerprint);
    const blocked = await server.client.targets.get.query({ id: lab });
    expect(blocked.hostKeyProblem).toMatchObject({ status: "unknown", fingerprint });
    // A job cannot start on a computer whose key is not accepted.
    expect(await errorOf(readyOn(lab))).toBeTruthy();

    const wrong = await errorOf(server.client.targets.acceptHostKey.mutate({ id: lab, fingerprint: `SHA256:${"A".repeat(43)}` }));
    expect(wrong?.message).toMatch(/check the new fingerprint/);
    const accepted = await server.client.targets.acceptHostKey.mutate({ id: lab, fingerprint });
    expect(accepted.hostKeyProblem).toBeNull();

    const before = await server.client.targets.testAccess.mutate({ id: lab });
    expect(before.hostKeyRefused).toBeNull();
    expect(before.node).toMatchObject({ ok: true, version: process.version });
    expect(before.install.version).toBeNull();
    expect(before.problems.join(" ")).toMatch(/not installed/);

    const plan = await server.client.targets.setupPlan.query({ id: lab });
    expect(plan).toMatchObject({ destination: workerDir });
    expect(plan.bytes).toBeGreaterThan(100_000);
    const done = await server.client.targets.setup.mutate({ id: lab });
    expect(done.install.destination).toBe(workerDir);
    expect(existsSync(path.join(workerDir, "trainyard-worker.mjs"))).toBe(true);
    expect(existsSync(path.join(workerDir, "tools", "build_env.py"))).toBe(true);
    expect(done.probe.envsDir).toBe(TEST_ENVS_DIR); // the owner's setting was kept

    const after = await server.client.targets.testAccess.mutate({ id: lab });
    expect(after.install.current).toBe(true);
    expect(after.problems).toEqual([]);
    expect(after.probe?.workerId).toBe(done.probe.workerId);
    await readyOn(lab);
  });

  it("reuses one SSH connection for worker calls instead of logging in for each", async () => {
    await server.client.targets.probe.mutate({ id: lab });
    const before = sshd.acceptedLogins();
    expect(before).toBeGreaterThan(0);
    for (let i = 0; i < 5; i++) await server.client.targets.probe.mutate({ id: lab });
    expect(sshd.acceptedLogins() - before).toBe(0);
  });

  it("refuses path, alias and host injection before anything runs", async () => {
    const marker = path.join(serverSide, "pwned");
    const attempts = [
      { name: "x1", connection: { mode: "manual" as const, host: sshd.host, port: sshd.port, user: sshd.user }, workerDir: `/tmp/x; touch ${marker}` },
      { name: "x2", connection: { mode: "manual" as const, host: sshd.host, port: sshd.port, user: sshd.user }, workerDir: "~/$(touch /tmp/x)" },
      { name: "x3", connection: { mode: "manual" as const, host: sshd.host, port: sshd.port, user: sshd.user }, workerDir, nodePath: `node --eval=require('fs').writeFileSync('${marker}','')` },
      { name: "x4", connection: { mode: "alias" as const, alias: `-oProxyCommand=touch ${marker}` } },
      { name: "x5", connection: { mode: "manual" as const, host: `${sshd.host} -oProxyCommand=touch`, port: sshd.port, user: sshd.user } },
      { name: "x6", connection: { mode: "manual" as const, host: sshd.host, port: sshd.port, user: "root;id" } },
    ];
    for (const a of attempts) {
      const err = await errorOf(server.client.targets.addServer.mutate(a));
      expect(err, JSON.stringify(a)).toBeTruthy();
    }
    // An alias whose config would run a ProxyCommand is refused, not followed.
    const jumpy = await errorOf(server.client.targets.addServer.mutate({ name: "jumpy", connection: { mode: "alias", alias: "jumpy" } }));
    expect(jumpy?.message).toMatch(/ProxyCommand/);
    expect(existsSync(marker)).toBe(false);
    expect(existsSync("/tmp/trainyard-proxy-pwned")).toBe(false);
    expect((await server.client.targets.list.query()).map((t) => t.name)).not.toContain("jumpy");
  });

  it("a job keeps running when its SSH connection is killed, and is reconciled from the remote receipt", async () => {
    const input = fixtureInput(home, "ssh-kill");
    const job = await admitFixtureJob(server, lab, input);
    await waitForState(server, job.id, ["running"]);
    const pid = await waitFor("the recipe pid", () => pidOf(input.pidFile));
    // Drop every SSH connection, then keep the server away while the job finishes.
    sshd.killSessions();
    await sshd.stop();
    writeFileSync(input.releaseFile, "go");
    await waitFor("the job to end on the server", () => !isProcessAlive(pid), 60_000);
    const away = await waitFor("the computer to show unreachable", async () => {
      const j = await server.client.jobs.get.query({ id: job.id });
      return j.unreachableSince ? j : undefined;
    });
    expect(away.state).not.toBe("succeeded");
    await sshd.start();
    const done = await waitForState(server, job.id, ["succeeded", "failed", "cancelled"], 90_000);
    expect(done.state).toBe("succeeded");
    expect(runCount(input.runLog)).toBe(1); // never launched again
  });

  it("cancels while connected, and while the server is down (delivered when it answers)", async () => {
    const a = fixtureInput(home, "ssh-cancel-up");
    const ja = await admitFixtureJob(server, lab, a);
    await waitForState(server, ja.id, ["running"]);
    const pa = await waitFor("the recipe pid", () => pidOf(a.pidFile));
    await server.client.jobs.cancel.mutate({ id: ja.id });
    expect((await waitForState(server, ja.id, ["cancelled", "succeeded", "failed"])).state).toBe("cancelled");
    expect(isProcessAlive(pa)).toBe(false);

    const b = fixtureInput(home, "ssh-cancel-down");
    const jb = await admitFixtureJob(server, lab, b);
    await waitForState(server, jb.id, ["running"]);
    const pb = await waitFor("the recipe pid", () => pidOf(b.pidFile));
    await sshd.stop();
    const pending = await server.client.jobs.cancel.mutate({ id: jb.id });
    expect(pending.cancelRequestedAt).not.toBeNull();
    await waitFor("the server to be noticed as unreachable", async () => (await server.client.jobs.get.query({ id: jb.id })).unreachableSince);
    expect(isProcessAlive(pb)).toBe(true); // nothing could be delivered yet
    expect((await server.client.jobs.get.query({ id: jb.id })).state).not.toBe("cancelled");
    await sshd.start();
    expect((await waitForState(server, jb.id, ["cancelled", "succeeded", "failed"], 90_000)).state).toBe("cancelled");
    expect(isProcessAlive(pb)).toBe(false);
    expect(runCount(b.runLog)).toBe(1);
  });

  it("two aliases that reach the same worker share one resource ledger", async () => {
    const alias = await server.client.targets.addServer.mutate({ name: "Lab via alias", connection: { mode: "alias", alias: "lab-alias" }, workerDir, nodePath: process.execPath });
    expect(alias.connection).toMatchObject({ alias: "lab-alias", host: sshd.host, port: sshd.port });
    // Its host key is in the known_hosts file the user's ssh config names: no prompt.
    const access = await server.client.targets.testAccess.mutate({ id: alias.id });
    expect(access.hostKeyRefused).toBeNull();
    const labProbe = (await server.client.targets.get.query({ id: lab })).probe!;
    expect(access.probe?.workerId).toBe(labProbe.workerId);
    expect((await server.client.targets.get.query({ id: alias.id })).sameWorkerAs).toEqual(["Lab server"]);

    const all = labProbe.capacity.cpus;
    const first = fixtureInput(home, "ledger-1");
    const second = fixtureInput(home, "ledger-2");
    const j1 = await server.client.jobs.admit.mutate({ opId: `l1-${Date.now()}`, targetId: lab, recipe: RECIPE, job: "run", input: { ...first }, resources: { cpus: all, ramGb: 0.1 }, deadlineSeconds: 300 });
    await waitForState(server, j1.id, ["running"]);
    const j2 = await server.client.jobs.admit.mutate({ opId: `l2-${Date.now()}`, targetId: alias.id, recipe: RECIPE, job: "run", input: { ...second }, resources: { cpus: all, ramGb: 0.1 }, deadlineSeconds: 300 });
    // The second waits for the first's CPUs although it came through another computer entry.
    await new Promise((r) => setTimeout(r, 3000));
    expect((await server.client.jobs.get.query({ id: j2.id })).state).toBe("queued");
    writeFileSync(first.releaseFile, "go");
    await waitForState(server, j2.id, ["running"], 60_000);
    writeFileSync(second.releaseFile, "go");
    expect((await waitForState(server, j2.id, ["succeeded", "failed"])).state).toBe("succeeded");

    // Disabled: no new jobs, but its jobs can still be read; deleted: gone from the lists.
    await server.client.targets.setEnabled.mutate({ id: alias.id, enabled: false });
    expect(await errorOf(server.client.jobs.admit.mutate({ opId: `l3-${Date.now()}`, targetId: alias.id, recipe: RECIPE, job: "run", input: { ...fixtureInput(home, "l3") }, resources: { cpus: 0.5, ramGb: 0.1 }, deadlineSeconds: 60 }))).toBeTruthy();
    expect((await server.client.jobs.get.query({ id: j2.id })).state).toBe("succeeded");
    await server.client.targets.remove.mutate({ id: alias.id });
    expect((await server.client.targets.list.query()).map((t) => t.id)).not.toContain(alias.id);
  });

  it("refuses to delete a computer with a live job", async () => {
    const input = fixtureInput(home, "ssh-delete");
    const job = await admitFixtureJob(server, lab, input);
    await waitForState(server, job.id, ["running"]);
    expect((await errorOf(server.client.targets.remove.mutate({ id: lab })))?.message).toMatch(/running or not yet reconciled/);
    writeFileSync(input.releaseFile, "go");
    await waitForState(server, job.id, ["succeeded"]);
  });

  it("a changed host key blocks the computer until the new key is accepted", async () => {
    await sshd.stop();
    renameSync(path.join(sshd.dir, "host_key"), path.join(sshd.dir, "host_key.old"));
    renameSync(path.join(sshd.dir, "host_key.pub"), path.join(sshd.dir, "host_key.old.pub"));
    keygen(path.join(sshd.dir, "host_key"));
    await sshd.start();
    const access = await server.client.targets.testAccess.mutate({ id: lab });
    expect(access.hostKeyRefused).toMatch(/changed/);
    const t = await server.client.targets.get.query({ id: lab });
    const fingerprint = fingerprintOf(path.join(sshd.dir, "host_key.pub"));
    expect(t.hostKeyProblem).toMatchObject({ status: "changed", fingerprint, knownFingerprints: [fingerprintOf(path.join(sshd.dir, "host_key.old.pub"))] });
    expect(await errorOf(server.client.targets.probe.mutate({ id: lab }))).toBeTruthy();
    await server.client.targets.acceptHostKey.mutate({ id: lab, fingerprint });
    expect((await server.client.targets.probe.mutate({ id: lab })).probe?.workerProtocol).toBeGreaterThan(0);

    // Forgetting the accepted key: the next connection asks again.
    const accepted = await server.client.targets.acceptedHostKeys.query();
    const mine = accepted.find((k) => k.fingerprint === fingerprint)!;
    expect(mine).toMatchObject({ hostName: `[${sshd.host}]:${sshd.port}`, keyType: "ssh-ed25519" });
    expect(accepted.some((k) => k.fingerprint === t.hostKeyProblem!.knownFingerprints[0])).toBe(false); // replaced, not added
    await server.client.targets.forgetHostKey.mutate({ id: mine.id });
    expect((await server.client.targets.testAccess.mutate({ id: lab })).hostKeyRefused).toContain(fingerprint);
    expect((await server.client.targets.get.query({ id: lab })).hostKeyProblem?.status).toBe("unknown");
  });
});
