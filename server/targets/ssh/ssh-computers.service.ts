/**
 * SSH training computers: enroll (alias or typed-in endpoint), edit (a new revision),
 * Test access, Set up, accept a host key, enable/disable, delete. Jobs pin the
 * revision and worker id they were admitted with; a computer whose worker still has
 * live or unknown jobs cannot be deleted or re-pointed, only renamed or disabled.
 */
import path from "node:path";
import { controllerRuntime, workerBundlePath } from "@/server/config/runtime";
import { getDb, type Db } from "@/server/db/client";
import { badInput, conflict, unavailable } from "@/server/errors";
import { publish } from "@/server/events/bus";
import { assertComputerNameFree } from "../computer-names";
import { targetsRepository, type TargetRow } from "../targets.repository";
import { parseProbe, targetsService, toTargetView } from "../targets.service";
import type { TargetDetailView, TProbe } from "../targets.schema";
import { MIN_NODE_MAJOR } from "./ssh-target.schema";
import { WorkerUnreachable } from "../transport";
import { localWorkerSettings } from "../local/local-target";
import { sftpOn } from "./ssh-files";
import { acceptHostKey, forgetHostKey, listAcceptedHostKeys } from "./host-key-store";
import { closePooledConnections } from "./ssh-pool";
import { installPlan } from "./install-plan";
import { installWorker, type InstallResult } from "./install-worker";
import { resolveAlias } from "./resolve-alias";
import { checkSession } from "./session-check";
import { readRemoteFile, withSftp } from "./sftp";
import { HostKeyRejected } from "./ssh-connection";
import { remoteLayout, sshConfigOf, sshConnectOptions } from "./ssh-target";
import {
  ZAcceptHostKeyInput,
  ZAddServerInput,
  ZForgetHostKeyInput,
  ZSetEnabledInput,
  ZSshTargetConfig,
  ZUpdateServerInput,
  type TAddServerInput,
  type TSshConnectionInput,
  type TSshTargetConfig,
  type TUpdateServerInput,
  type AccessReport,
  type SetupPlanView,
} from "./ssh-target.schema";
import { sshRun } from "./ssh-transport";
import type { TSlurmSettings } from "@/contracts/worker";


async function configFrom(connection: TSshConnectionInput, workerDir: string, nodePath: string | null): Promise<TSshTargetConfig> {
  if (connection.mode === "alias") {
    const r = await resolveAlias(connection.alias, controllerRuntime().config.sshConfig);
    return ZSshTargetConfig.parse({ alias: connection.alias, endpoint: r.endpoint, knownHostsFiles: r.knownHostsFiles, workerDir, nodePath });
  }
  return ZSshTargetConfig.parse({
    alias: null,
    endpoint: { host: connection.host, port: connection.port, user: connection.user, identityFiles: connection.keyPath ? [connection.keyPath] : [] },
    knownHostsFiles: [],
    workerDir,
    nodePath,
  });
}

const sameReach = (a: TSshTargetConfig, b: TSshTargetConfig) =>
  JSON.stringify({ ...a.endpoint, w: a.workerDir, n: a.nodePath, al: a.alias }) === JSON.stringify({ ...b.endpoint, w: b.workerDir, n: b.nodePath, al: b.alias });

export function sshComputersService(db: Db = getDb()) {
  const repo = targetsRepository(db);
  const targets = targetsService(db);

  async function requireSsh(id: string): Promise<TargetRow> {
    const t = await targets.requireTarget(id);
    if (t.deletedAt) throw badInput(`${t.name} was deleted.`);
    if (t.kind !== "ssh") throw badInput(`${t.name} is not an SSH server.`);
    return t;
  }

  async function detail(id: string): Promise<TargetDetailView> {
    const t = await targets.requireTarget(id);
    return { ...toTargetView(t, await repo.list()), probe: parseProbe(t.probe) };
  }

  /** `slurm`: a Slurm cluster's login node (slurm-computers.service), not offered through the form. */
  async function add(raw: TAddServerInput, slurm: TSlurmSettings | null = null): Promise<TargetDetailView> {
    const input = ZAddServerInput.parse(raw);
    await assertComputerNameFree(repo, input.name);
    const config = { ...(await configFrom(input.connection, input.workerDir, input.nodePath)), slurm };
    const t = await repo.create(input.name, "ssh", JSON.stringify(config));
    publish({ type: "target.changed", targetId: t.id });
    return detail(t.id);
  }

  async function update(raw: TUpdateServerInput): Promise<TargetDetailView> {
    const input = ZUpdateServerInput.parse(raw);
    const t = await requireSsh(input.id);
    await assertComputerNameFree(repo, input.name, t.id);
    // An edit of how it is reached keeps what it is: a Slurm login node stays one.
    const next = { ...(await configFrom(input.connection, input.workerDir, input.nodePath)), slurm: sshConfigOf(t).slurm };
    const reachChanged = !sameReach(sshConfigOf(t), next);
    if (reachChanged && (await repo.countUnsettledJobs(t.id)) > 0) {
      throw conflict(`${t.name} has jobs that are running or not yet reconciled; wait for them (or cancel them) before changing how it is reached. You can rename or disable it now.`);
    }
    await repo.updateConfig(t.id, input.name, JSON.stringify(next), reachChanged);
    publish({ type: "target.changed", targetId: t.id });
    return detail(t.id);
  }

  async function testAccess(id: string): Promise<AccessReport> {
    let t = await requireSsh(id);
    const stored = sshConfigOf(t);
    if (stored.alias) {
      // The user's ssh config may have changed since enrollment: apply it (a new revision when it did).
      const fresh = { ...(await configFrom({ mode: "alias", alias: stored.alias }, stored.workerDir, stored.nodePath)), slurm: stored.slurm };
      if (!sameReach(stored, fresh) && (await repo.countUnsettledJobs(t.id)) === 0) t = await repo.updateConfig(t.id, t.name, JSON.stringify(fresh), true);
    }
    const cfg = sshConfigOf(t);
    const report: AccessReport = { hostKeyRefused: null, node: { version: null, ok: false, message: null }, sessionWarning: null, install: { version: null, checksum: null, current: false }, probe: null, problems: [] };
    const opts = await sshConnectOptions(db, t, 30_000);
    const node = cfg.nodePath ?? "node";
    try {
      // cfg.nodePath passed the safe-path check when it was stored; "node" is a fixed word.
      const r = await sshRun(opts, `${node} --version`, "");
      const m = /^v(\d+)\.(\d+)\.(\d+)/.exec(r.stdout.trim());
      if (!m) {
        report.node.message = r.code === 127 ? `Node.js was not found on ${t.name} as "${node}". Install Node ${MIN_NODE_MAJOR}+ or set the path of Node (a version manager's Node is often not on the PATH of an SSH command).` : `"${node} --version" answered ${JSON.stringify((r.stdout || r.stderr).trim().slice(0, 120))}.`;
      } else {
        report.node.version = m[0];
        report.node.ok = Number(m[1]) >= MIN_NODE_MAJOR;
        if (!report.node.ok) report.node.message = `Node ${m[0]} is too old: the worker needs Node ${MIN_NODE_MAJOR} or newer.`;
      }
      await withSftp(opts, async (s) => {
        report.sessionWarning = await checkSession(s, cfg.endpoint.user);
        const installed = await readRemoteFile(s, remoteLayout(cfg.workerDir).install);
        if (installed) {
          let info: { version?: string; checksum?: string } = {};
          try {
            info = JSON.parse(installed.toString("utf8")) as typeof info;
          } catch {
            // unreadable: reported below as another version, and Set up rewrites it
          }
          report.install.version = info.version ?? "unknown";
          report.install.checksum = info.checksum ?? null;
          const plan = currentPlan();
          report.install.current = info.checksum === plan.checksum;
        }
      });
      await repo.markReachable(t.id);
    } catch (err) {
      await targets.recordFailure(t, err);
      if (err instanceof HostKeyRejected) {
        report.hostKeyRefused = err.message;
        return report;
      }
      if (err instanceof WorkerUnreachable) throw unavailable(err.message);
      throw err;
    }
    if (report.node.message) report.problems.push(report.node.message);
    if (!report.install.version) report.problems.push(`The worker is not installed in ${cfg.workerDir} yet: use Set up.`);
    else if (!report.install.current) report.problems.push(`The worker there is another version (${report.install.version}); use Set up to install this one.`);
    if (report.install.version && report.node.ok) {
      try {
        report.probe = (await targets.probe(t.id)).probe;
      } catch (err) {
        report.problems.push((err as Error).message);
      }
    }
    publish({ type: "target.changed", targetId: t.id });
    return report;
  }

  /** The same recipes and tools This computer's worker uses, with this version's bundle. */
  function currentPlan() {
    const rt = controllerRuntime();
    const local = localWorkerSettings(rt);
    return installPlan(path.dirname(workerBundlePath(rt)), local.trainingDir, path.dirname(local.buildEnvScript));
  }

  async function setupPlan(id: string): Promise<SetupPlanView> {
    const t = await requireSsh(id);
    const cfg = sshConfigOf(t);
    const plan = currentPlan();
    return { version: plan.version, files: plan.files.length, bytes: plan.bytes, destination: cfg.workerDir, host: `${cfg.endpoint.user}@${cfg.endpoint.host}:${cfg.endpoint.port}` };
  }

  async function setup(id: string): Promise<{ install: InstallResult; probe: TProbe }> {
    const t = await requireSsh(id);
    const cfg = sshConfigOf(t);
    const plan = currentPlan();
    const install = await sftpOn(db, t, (s) => installWorker(s, cfg.workerDir, plan, { slurm: cfg.slurm }), 120_000).catch((err: Error) => {
      throw unavailable(`Set up on ${t.name} failed: ${err.message}`);
    });
    // A Slurm login node's first probe also runs a job on a compute node, to see the worker home from there.
    const probed = await targets.probe(t.id, { checkSharedHome: cfg.slurm !== null });
    if (probed.probe?.version !== plan.version) throw unavailable(`${t.name} answers with worker ${probed.probe?.version} after Set up, expected ${plan.version}.`);
    return { install, probe: probed.probe };
  }

  async function acceptKey(raw: unknown): Promise<TargetDetailView> {
    const input = ZAcceptHostKeyInput.parse(raw);
    const t = await requireSsh(input.id);
    const problem = toTargetView(t).hostKeyProblem;
    const stored = t.hostKeyProblem ? (JSON.parse(t.hostKeyProblem) as { key: string }) : null;
    if (!problem || !stored) throw badInput(`${t.name} has no refused host key to accept; use Test access first.`);
    if (problem.status === "revoked") {
      throw badInput(`${t.name} presents a key your known_hosts marks as revoked (${problem.fingerprint}); it cannot be accepted here. Remove the @revoked line yourself if the key is trustworthy again.`);
    }
    if (problem.fingerprint !== input.fingerprint) {
      throw conflict(`${t.name} now presents ${problem.fingerprint}, not ${input.fingerprint}; check the new fingerprint before accepting it.`);
    }
    await acceptHostKey(db, { hostName: problem.hostName, keyType: problem.keyType, key: stored.key, fingerprint: problem.fingerprint });
    await repo.setHostKeyProblem(t.id, null);
    publish({ type: "target.changed", targetId: t.id });
    return detail(t.id);
  }

  async function setEnabled(raw: unknown): Promise<TargetDetailView> {
    const input = ZSetEnabledInput.parse(raw);
    const t = await targets.requireTarget(input.id);
    if (t.deletedAt) throw badInput(`${t.name} was deleted.`);
    await repo.setEnabled(t.id, input.enabled);
    publish({ type: "target.changed", targetId: t.id });
    return detail(t.id);
  }

  async function remove(id: string): Promise<{ deleted: true }> {
    const t = await targets.requireTarget(id);
    if (t.kind === "local") throw badInput("This computer cannot be deleted; disable it instead.");
    if (t.deletedAt) return { deleted: true };
    const unsettled = await repo.countUnsettledJobs(t.id);
    if (unsettled > 0) {
      throw conflict(`${t.name} has ${unsettled} job${unsettled === 1 ? "" : "s"} running or not yet reconciled; cancel ${unsettled === 1 ? "it" : "them"} and wait until ${unsettled === 1 ? "it ends" : "they end"} before deleting the computer.`);
    }
    await db.project.updateMany({ where: { defaultTargetId: t.id }, data: { defaultTargetId: null } });
    await repo.softDelete(t.id, `${t.name} (deleted ${t.id.slice(-6)})`, new Date());
    publish({ type: "target.changed", targetId: t.id });
    return { deleted: true };
  }

  async function forgetKey(raw: unknown): Promise<{ forgotten: boolean }> {
    const input = ZForgetHostKeyInput.parse(raw);
    const forgotten = await forgetHostKey(db, input.id);
    // Pooled connections were checked against the old list: new ones check against the new.
    closePooledConnections();
    return { forgotten };
  }

  return { add, update, testAccess, setupPlan, setup, acceptKey, forgetKey, acceptedKeys: () => listAcceptedHostKeys(db), setEnabled, remove };
}
