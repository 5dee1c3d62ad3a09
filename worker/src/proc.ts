// Linux /proc helpers: process identity (pid + start time + boot id), process-group
// membership, liveness, signalling a whole group — only a group whose recorded leader
// still matches (a reused pid is never signalled). Linux only (DESIGN: macOS later).
import fs from "node:fs";
import type { TProcessIdentity } from "../../contracts/worker/receipt";

let cachedBootId: string | null | undefined;
export function bootId(): string {
  if (cachedBootId === undefined) {
    try {
      cachedBootId = fs.readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
    } catch {
      cachedBootId = null;
    }
  }
  return cachedBootId ?? "unknown-boot";
}

export interface ProcStat {
  pid: number;
  state: string;
  ppid: number;
  pgid: number;
  utime: number;
  stime: number;
  cutime: number;
  cstime: number;
  /** Field 22: start time in clock ticks since boot. */
  startTime: number;
}

/** Parse /proc/<pid>/stat; the comm field may hold spaces and parens, so split after the last ')'. */
export function readStat(pid: number): ProcStat | null {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null;
  }
  const close = text.lastIndexOf(")");
  const f = text.slice(close + 2).split(" ");
  // f[0] is field 3 (state); field n is f[n - 3].
  return {
    pid,
    state: f[0] ?? "?",
    ppid: Number(f[1]),
    pgid: Number(f[2]),
    utime: Number(f[11]),
    stime: Number(f[12]),
    cutime: Number(f[13]),
    cstime: Number(f[14]),
    startTime: Number(f[19]),
  };
}

export function identityOf(pid: number): TProcessIdentity | null {
  const st = readStat(pid);
  return st ? { pid, startTime: st.startTime, bootId: bootId() } : null;
}

/** True only when this exact process (same boot, same start time) still runs and is not a zombie. */
export function isAlive(id: TProcessIdentity | null): boolean {
  if (!id || id.bootId !== bootId()) return false;
  const st = readStat(id.pid);
  return st !== null && st.startTime === id.startTime && st.state !== "Z";
}

export function allPids(): number[] {
  const out: number[] = [];
  for (const name of fs.readdirSync("/proc")) {
    const n = Number(name);
    if (Number.isInteger(n) && n > 0) out.push(n);
  }
  return out;
}

/** Live (non-zombie) members of a process group, found by scanning /proc/<pid>/stat. */
export function groupMembers(pgid: number): ProcStat[] {
  const out: ProcStat[] = [];
  for (const pid of allPids()) {
    const st = readStat(pid);
    if (st && st.pgid === pgid && st.state !== "Z") out.push(st);
  }
  return out;
}

/**
 * Live members of a job's process group, whose id is the recorded leader's pid. While a
 * process with that pid exists it must be the recorded leader (same start time and boot):
 * otherwise the pid was reused and the group with that id, if any, is someone else's.
 * Once the leader is gone, Linux keeps its pid allocated for as long as any process has
 * it as its group id, so the members then found are the job's; a member that started
 * before the leader never is.
 */
export function jobGroupMembers(leader: TProcessIdentity | null): ProcStat[] {
  if (!leader || leader.bootId !== bootId()) return [];
  const holder = readStat(leader.pid);
  if (holder && holder.startTime !== leader.startTime) return [];
  return groupMembers(leader.pid).filter((m) => m.startTime >= leader.startTime);
}

/** A recorded recipe group is alive if it has members that are the job's (jobGroupMembers). */
export function groupAlive(leader: TProcessIdentity | null): boolean {
  return jobGroupMembers(leader).length > 0;
}

/** Signal a job's group only if it is still the job's; returns whether a signal was sent. */
export function signalJobGroup(leader: TProcessIdentity | null, signal: NodeJS.Signals): boolean {
  if (!leader || jobGroupMembers(leader).length === 0) return false;
  signalGroup(leader.pid, signal);
  return true;
}

/** Raw group signal; callers outside proc.ts use signalJobGroup, which checks identity first. */
function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: nothing left in the group.
  }
}

/** One `VmXxx:  N kB` line of /proc/<pid>/status in bytes; 0 once the process is gone. */
function statusBytes(pid: number, field: "VmRSS" | "VmHWM"): number {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

export const rssBytes = (pid: number): number => statusBytes(pid, "VmRSS");
export const hwmBytes = (pid: number): number => statusBytes(pid, "VmHWM");

/** Proportional set size (shared pages split among their sharers), from smaps_rollup; 0 once gone or unreadable. */
export function pssBytes(pid: number): number {
  try {
    const m = /^Pss:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Kernel OOM-kill counter of this process's cgroup (v2), or null where unavailable. */
export function cgroupOomKills(): number | null {
  try {
    const line = fs.readFileSync("/proc/self/cgroup", "utf8").split("\n").find((l) => l.startsWith("0::"));
    if (!line) return null;
    const events = fs.readFileSync(`/sys/fs/cgroup${line.slice(3)}/memory.events`, "utf8");
    const m = /oom_kill (\d+)/.exec(events);
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}
