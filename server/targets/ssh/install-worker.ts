/**
 * "Set up": installs the worker for this exact version into the worker directory on a
 * server over SFTP, as the SSH user (no root, nothing outside that directory). Files go
 * to a staging folder first, are read back and checked against their SHA-256, and only
 * then replace the previous install (rename); an interrupted Set up leaves the old
 * install working. The worker's config.json is merged: fields the owner set stay.
 */
import { createHash } from "node:crypto";
import { randomBytes } from "node:crypto";
import type { TSlurmSettings } from "@/contracts/worker";
import type { InstallPlan } from "./install-plan";
import { INSTALL_DIRS, installChecksum } from "./install-plan";
import { mkdirp, readRemoteFile, removeTree, renameOver, sftpPath, statOrNull, uploadFrom, writeRemoteFile, type SftpSession } from "./sftp";
import { remoteLayout } from "./ssh-target";

export interface InstallResult {
  version: string;
  checksum: string;
  files: number;
  bytes: number;
  /** The absolute worker directory on the server. */
  destination: string;
}

export class InstallVerificationFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InstallVerificationFailed";
  }
}

/** `~/x` as an absolute path, from the SFTP session's home. */
export function absoluteRemote(s: SftpSession, p: string): Promise<string> {
  if (!p.startsWith("~/")) return Promise.resolve(p);
  return new Promise((resolve, reject) =>
    s.sftp.realpath(".", (err, home) => (err ? reject(err) : resolve(`${home.replace(/\/+$/, "")}/${sftpPath(p)}`))),
  );
}

export async function installWorker(s: SftpSession, workerDir: string, plan: InstallPlan, settings: { slurm: TSlurmSettings | null }, onProgress?: (done: number, total: number) => void): Promise<InstallResult> {
  const layout = remoteLayout(workerDir);
  const staging = `${layout.dir}/.setup-${randomBytes(6).toString("hex")}`;
  await mkdirp(s, layout.dir);
  await mkdirp(s, layout.worker.incoming);
  let done = 0;
  try {
    for (const f of plan.files) {
      const dest = `${staging}/${f.dest}`;
      await mkdirp(s, dest.slice(0, dest.lastIndexOf("/")));
      await uploadFrom(s, f.local, dest, 0);
      done += f.bytes;
      onProgress?.(done, plan.bytes);
    }
    // Read every file back: what is installed is what was planned, byte for byte.
    const arrived = [];
    for (const f of plan.files) {
      const data = await readRemoteFile(s, `${staging}/${f.dest}`);
      const sha256 = data ? createHash("sha256").update(data).digest("hex") : "missing";
      if (sha256 !== f.sha256) throw new InstallVerificationFailed(`${f.dest} arrived with SHA-256 ${sha256}, expected ${f.sha256}; nothing was replaced`);
      arrived.push({ dest: f.dest, sha256 });
    }
    const checksum = installChecksum(arrived);
    if (checksum !== plan.checksum) throw new InstallVerificationFailed(`the install checksum is ${checksum}, expected ${plan.checksum}`);
    // Swap in: the bundle files by rename over, each folder by moving the old one aside.
    const inDir = (f: { dest: string }) => INSTALL_DIRS.some((d) => f.dest.startsWith(`${d}/`));
    for (const f of plan.files.filter((x) => !inDir(x))) await renameOver(s, `${staging}/${f.dest}`, `${layout.dir}/${f.dest}`);
    for (const d of INSTALL_DIRS) {
      const old = `${staging}-old-${d}`;
      if (await statOrNull(s, `${layout.dir}/${d}`)) await renameOver(s, `${layout.dir}/${d}`, old);
      if (await statOrNull(s, `${staging}/${d}`)) await renameOver(s, `${staging}/${d}`, `${layout.dir}/${d}`);
      await removeTree(s, old);
    }
    await removeTree(s, staging);
  } catch (err) {
    // The install's own error is the one to report; a staging folder left over is replaced by the next install.
    await removeTree(s, staging).catch(() => {});
    throw err;
  }
  const destination = await absoluteRemote(s, layout.dir);
  const current = await readRemoteFile(s, layout.config);
  let config: Record<string, unknown> = {};
  try {
    config = current ? (JSON.parse(current.toString("utf8")) as Record<string, unknown>) : {};
  } catch {
    config = {};
  }
  const next = {
    ...config,
    trainingDir: `${destination}/training`,
    buildEnvScript: `${destination}/tools/build_env.py`,
    envsDir: typeof config.envsDir === "string" && config.envsDir ? config.envsDir : `${destination}/envs`,
    // A Slurm login node: its worker sends each recipe job to the partition with sbatch.
    ...(settings.slurm ? { slurm: settings.slurm } : {}),
  };
  const tmp = `${layout.config}.${randomBytes(4).toString("hex")}.tmp`;
  await writeRemoteFile(s, tmp, JSON.stringify(next, null, 2) + "\n");
  await renameOver(s, tmp, layout.config);
  const result = { version: plan.version, checksum: plan.checksum, files: plan.files.length, bytes: plan.bytes, destination };
  await writeRemoteFile(s, layout.install, JSON.stringify({ ...result, installedAt: new Date().toISOString() }, null, 2) + "\n");
  return result;
}
