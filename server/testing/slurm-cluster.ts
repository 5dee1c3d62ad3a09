/**
 * A real single-node Slurm cluster for the tests, started from nothing in a temp folder:
 * its own munge key and socket, `slurmctld -D` and `slurmd -D` on free loopback ports, as
 * root, with the settings that work without systemd or cgroups (proctrack/linuxproc,
 * task/none) and job completion records in a text file (jobcomp/filetxt). Debian's
 * `slurm-wlm` and `munge` must be installed (`.ci/run` installs them); the cluster is gone
 * when `stop()` returns.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, waitFor } from "./server-harness";

export interface SlurmCluster {
  /** slurm.conf: the SLURM_CONF a server (and its worker) uses to reach this cluster. */
  conf: string;
  partition: string;
  node: string;
  /** Runs a Slurm command against this cluster; throws on failure. */
  run(command: string, args: string[]): string;
  /** Job completion records (jobcomp/filetxt), one line per ended job. */
  completions(): string;
  stopController(): Promise<void>;
  startController(): Promise<void>;
  stop(): Promise<void>;
}

const BINARIES = ["munged", "slurmctld", "slurmd", "sbatch", "squeue", "scancel", "sinfo", "scontrol"];

function which(bin: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${bin}`], { encoding: "utf8" }).status === 0;
}


function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

/** slurmstepd processes of the cluster whose folder is `dir`: they inherit slurmd's SLURM_CONF, or hold files there. */
function stepDaemonsOf(dir: string): number[] {
  const read = (f: string) => {
    try {
      return readFileSync(f, "utf8");
    } catch {
      return "";
    }
  };
  const inDir = (link: string) => {
    try {
      return readlinkSync(link).startsWith(dir);
    } catch {
      return false;
    }
  };
  const fds = (n: string) => {
    try {
      return readdirSync(`/proc/${n}/fd`);
    } catch {
      return [];
    }
  };
  return readdirSync("/proc")
    .filter((n) => /^\d+$/.test(n) && read(`/proc/${n}/comm`).trim() === "slurmstepd")
    .filter((n) => read(`/proc/${n}/environ`).includes(`SLURM_CONF=${dir}/`) || fds(n).some((fd) => inDir(`/proc/${n}/fd/${fd}`)))
    .map(Number);
}

export async function startSlurmCluster(): Promise<SlurmCluster> {
  const missing = BINARIES.filter((b) => !which(b));
  if (missing.length) throw new Error(`Slurm tests need Debian's slurm-wlm and munge (missing: ${missing.join(", ")}): apt-get install slurm-wlm munge`);
  if (process.getuid?.() !== 0) throw new Error("Slurm tests start slurmctld and slurmd as root (SlurmUser=root)");
  const dir = mkdtempSync(path.join(os.tmpdir(), "trainyard-slurm-"));
  for (const d of ["state", "spool", "log"]) mkdirSync(path.join(dir, d));
  const key = path.join(dir, "munge.key");
  writeFileSync(key, randomBytes(1024), { mode: 0o400 });
  chmodSync(key, 0o400);
  const socket = path.join(dir, "munge.sock");
  const munge = spawnSync("munged", [`--socket=${socket}`, `--key-file=${key}`, `--pid-file=${dir}/munged.pid`, `--log-file=${dir}/log/munged.log`, `--seed-file=${dir}/munge.seed`, "--force"], { encoding: "utf8" });
  if (munge.status !== 0) throw new Error(`munged did not start: ${munge.stderr}`);
  const node = os.hostname().split(".")[0]!;
  const [ctldPort, dPort] = [await freePort(), await freePort()];
  const conf = path.join(dir, "slurm.conf");
  const partition = "debug";
  writeFileSync(
    conf,
    [
      "ClusterName=trainyardtest",
      `SlurmctldHost=${node}(127.0.0.1)`,
      `SlurmctldPort=${ctldPort}`,
      `SlurmdPort=${dPort}`,
      "AuthType=auth/munge",
      `AuthInfo=socket=${socket}`,
      "CredType=cred/munge",
      "SlurmUser=root",
      "SlurmdUser=root",
      `StateSaveLocation=${dir}/state`,
      `SlurmdSpoolDir=${dir}/spool`,
      `SlurmctldPidFile=${dir}/slurmctld.pid`,
      `SlurmdPidFile=${dir}/slurmd.pid`,
      `SlurmctldLogFile=${dir}/log/slurmctld.log`,
      `SlurmdLogFile=${dir}/log/slurmd.log`,
      "ProctrackType=proctrack/linuxproc",
      "TaskPlugin=task/none",
      "JobCompType=jobcomp/filetxt",
      `JobCompLoc=${dir}/jobcomp.txt`,
      "SchedulerType=sched/backfill",
      "SelectType=select/cons_tres",
      "SelectTypeParameters=CR_Core_Memory",
      "ReturnToService=2",
      "MpiDefault=none",
      "SwitchType=switch/none",
      // Short waits: a test stops the controller and expects its absence to be said in seconds.
      "MessageTimeout=5",
      `NodeName=${node} NodeAddr=127.0.0.1 CPUs=${os.cpus().length} RealMemory=${Math.floor((os.totalmem() / 1024 ** 2) * 0.8)} State=UNKNOWN`,
      `PartitionName=${partition} Nodes=${node} Default=YES MaxTime=INFINITE State=UP`,
      "",
    ].join("\n"),
  );
  const env = { ...process.env, SLURM_CONF: conf };
  const logs = () => ["slurmctld.log", "slurmd.log", "munged.log"].map((f) => (existsSync(path.join(dir, "log", f)) ? `${f}:\n${readFileSync(path.join(dir, "log", f), "utf8").slice(-2000)}` : "")).join("\n");
  const run = (command: string, args: string[]) => {
    const r = spawnSync(command, args, { env, encoding: "utf8", timeout: 30_000 });
    if (r.status !== 0) throw new Error(`${command} ${args.join(" ")}: ${r.stderr || r.error?.message}`);
    return r.stdout;
  };
  /** server-harness's waitFor, with the cluster's logs when it gives up. */
  const waitOrSay = (what: string, check: () => boolean, timeoutMs: number) =>
    waitFor(what, check, timeoutMs, 200).catch((err: Error) => {
      throw new Error(`${err.message}:\n${logs()}`);
    });
  const answers = () => spawnSync("sinfo", ["-h", "-o", "%T"], { env, encoding: "utf8", timeout: 10_000 });
  let ctld: ChildProcess | null = null;
  const startController = async () => {
    if (ctld) return;
    ctld = spawn("slurmctld", ["-D", "-i"], { env, stdio: "ignore" });
    await waitOrSay("slurmctld to answer", () => answers().status === 0, 30_000);
  };
  await startController();
  const slurmd = spawn("slurmd", ["-D", "-N", node], { env, stdio: "ignore" });
  await waitOrSay("the node to become idle", () => /idle/.test(answers().stdout ?? ""), 60_000);
  const stopController = async () => {
    if (!ctld) return;
    ctld.kill("SIGKILL");
    await exited(ctld);
    ctld = null;
  };
  return {
    conf,
    partition,
    node,
    run,
    completions: () => (existsSync(path.join(dir, "jobcomp.txt")) ? readFileSync(path.join(dir, "jobcomp.txt"), "utf8") : ""),
    stopController,
    startController,
    async stop() {
      spawnSync("scancel", ["--full", "--user=root"], { env, timeout: 10_000 });
      await waitFor("the jobs to end", () => (spawnSync("squeue", ["-h"], { env, encoding: "utf8", timeout: 10_000 }).stdout ?? "").trim() === "", 15_000, 200).catch(() => undefined);
      slurmd.kill("SIGTERM");
      await Promise.race([exited(slurmd), new Promise((r) => setTimeout(r, 10_000))]);
      slurmd.kill("SIGKILL");
      // A job step's slurmstepd outlives slurmd: end this cluster's (those with files in its folder).
      for (const pid of stepDaemonsOf(dir)) {
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          // gone meanwhile
        }
      }
      await stopController();
      const pid = existsSync(`${dir}/munged.pid`) ? Number(readFileSync(`${dir}/munged.pid`, "utf8")) : 0;
      const alive = (p: number) => {
        try {
          process.kill(p, 0);
          return true;
        } catch {
          return false;
        }
      };
      if (pid > 0 && alive(pid)) process.kill(pid, "SIGTERM");
      // munged and the last slurmstepd write into the folder while they exit.
      for (let i = 0; i < 40; i++) {
        try {
          if (!(pid > 0 && alive(pid))) {
            rmSync(dir, { recursive: true, force: true });
            return;
          }
        } catch {
          // a file appeared while removing: again
        }
        await new Promise((r) => setTimeout(r, 250));
      }
      rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 250 });
    },
  };
}
