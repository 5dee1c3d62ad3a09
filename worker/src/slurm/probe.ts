// What a Slurm computer's probe reports of its cluster: Slurm's version, whether its
// controller answers, the partitions with their nodes, CPUs, memory and GPUs, and (when
// asked, at enrolment) whether a job on a compute node sees the worker's home.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { TSlurmProbe, TSlurmSettings } from "../../../contracts/worker/slurm";
import type { Home } from "../home";
import { runSlurm } from "./commands";
import { batchScript } from "./script";

/** How long the shared-home probe job may wait for a node before it is reported as not run. */
const PROBE_JOB_SECONDS = 40;

const int = (s: string | undefined) => (s && /^\d+/.test(s) ? parseInt(s, 10) : null);

function partitions(settings: TSlurmSettings) {
  const r = runSlurm(settings, "sinfo", ["-h", "-o", "%R|%a|%D|%c|%m|%G|%N|%C"], 15_000);
  if (!r.ok) return { list: [], error: r.error };
  const list = r.stdout
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => {
      const [name = "", state = "", nodes, cpus, mem, gres = "", nodeNames = "", cpuStates = ""] = l.split("|");
      // %C is allocated/idle/other/total.
      const idleCpus = int(cpuStates.split("/")[1]);
      return { name, state, nodes: int(nodes) ?? 0, cpusPerNode: int(cpus), memoryMibPerNode: int(mem), idleCpus, gres: gres && gres !== "(null)" ? gres : null, nodeNames };
    });
  return { list, error: null };
}

/** Runs a tiny job that writes its node's name into the worker's home with the same Node the supervisor uses. */
function checkSharedHome(home: Home, settings: TSlurmSettings): TSlurmProbe["sharedHome"] {
  const dir = path.join(home.root, "slurm-probe");
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const name = crypto.randomBytes(6).toString("hex");
  const seen = path.join(dir, `${name}.seen`);
  const out = path.join(dir, `${name}.out`);
  const script = path.join(dir, `${name}.sh`);
  fs.writeFileSync(script, batchScript([process.execPath, "-e", 'require("fs").writeFileSync(process.argv[1], require("os").hostname())', seen]), { mode: 0o700 });
  try {
    const args = ["--wait", "--parsable", "--job-name=trainyard-probe", `--chdir=${home.root}`, `--partition=${settings.partition}`, ...(settings.account ? [`--account=${settings.account}`] : []), ...(settings.qos ? [`--qos=${settings.qos}`] : [])];
    const r = runSlurm(settings, "sbatch", [...args, "--time=1", "--cpus-per-task=1", "--mem=64M", `--output=${out}`, script], PROBE_JOB_SECONDS * 1000);
    if (fs.existsSync(seen)) return { visible: true, node: fs.readFileSync(seen, "utf8").trim() || null, detail: null };
    const id = r.stdout.trim().split(";")[0];
    if (id && /^\d+$/.test(id) && !r.ok) runSlurm(settings, "scancel", [id]);
    const log = fs.existsSync(out) ? fs.readFileSync(out, "utf8").trim().slice(-500) : "";
    const why = r.ok
      ? `a job on a compute node ran but did not write into ${home.root}: that folder must be on a file system the compute nodes share, with Node.js at ${process.execPath}`
      : `the probe job did not finish (${r.error})`;
    return { visible: false, node: null, detail: log ? `${why}; its output: ${log}` : why };
  } finally {
    for (const f of [seen, out, script]) fs.rmSync(f, { force: true });
  }
}

export function slurmProbe(home: Home, settings: TSlurmSettings, withSharedHome: boolean): TSlurmProbe {
  const version = runSlurm(settings, "sinfo", ["--version"], 10_000);
  const versionNumber = version.ok ? (version.stdout.trim().split(/\s+/)[1] ?? version.stdout.trim()) : null;
  if (!version.ok) {
    return { version: null, controllerUp: false, partition: settings.partition, partitions: [], sharedHome: null, pendingJobs: null, problem: `Slurm's commands do not run here: ${version.error}` };
  }
  const parts = partitions(settings);
  if (parts.error) {
    return { version: versionNumber, controllerUp: false, partition: settings.partition, partitions: [], sharedHome: null, pendingJobs: null, problem: `Slurm's controller does not answer: ${parts.error}` };
  }
  const mine = parts.list.find((p) => p.name === settings.partition);
  const problem = !mine
    ? `Slurm has no partition "${settings.partition}" (it has ${parts.list.map((p) => p.name).join(", ") || "none"})`
    : mine.state !== "up"
      ? `partition "${settings.partition}" is ${mine.state}: jobs wait until it is up`
      : null;
  const sharedHome = withSharedHome && mine ? checkSharedHome(home, settings) : null;
  const pending = runSlurm(settings, "squeue", ["-h", "-p", settings.partition, "-t", "PENDING", "-o", "%i"], 15_000);
  return {
    version: versionNumber,
    controllerUp: true,
    partition: settings.partition,
    partitions: parts.list,
    sharedHome,
    pendingJobs: pending.ok ? pending.stdout.split("\n").filter((l) => l.trim()).length : null,
    problem: problem ?? (sharedHome && !sharedHome.visible ? sharedHome.detail : null),
  };
}

/**
 * What one job can have on a Slurm computer: a node of its partition (the controller sizes
 * jobs by it); null when Slurm did not say, and the login node's own capacity applies.
 */
export function slurmJobCapacity(slurm: TSlurmProbe): { cpus: number; ramGb: number; gpus: number } | null {
  const p = slurm.partitions.find((x) => x.name === slurm.partition);
  if (!p || p.cpusPerNode === null) return null;
  const gpus = p.gres?.match(/gpu(?::[^:,(]+)?:(\d+)/)?.[1];
  return { cpus: p.cpusPerNode, ramGb: p.memoryMibPerNode === null ? 0 : Math.floor((p.memoryMibPerNode / 1024) * 10) / 10, gpus: gpus ? Number(gpus) : 0 };
}
