// Tests find the processes a job or an sshd left behind by reading /proc directly: what
// they look for (an environment variable, a parent pid) is in one of each process's files.
import { readdirSync, readFileSync } from "node:fs";

/** Pids whose /proc/<pid>/<file> satisfies `match`; a process that ends meanwhile, or is not ours to read, is skipped. */
export function pidsWhere(file: "environ" | "stat" | "cmdline", match: (text: string) => boolean): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (match(readFileSync(`/proc/${entry}/${file}`, "utf8"))) pids.push(Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return pids;
}

/**
 * Ends (SIGKILL) every process whose command line or environment names `dir`, and waits until
 * they are gone: what a test home's worker left running (a warm runner idling, a supervisor or
 * control process finishing) would otherwise write into the home while it is removed.
 */
export async function killProcessesNaming(dir: string, timeoutMs = 5000): Promise<number[]> {
  const names = (text: string) => text.includes(dir);
  const pids = [...new Set([...pidsWhere("cmdline", names), ...pidsWhere("environ", names)])].filter((p) => p !== process.pid);
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  const until = Date.now() + timeoutMs;
  const alive = (pid: number) => {
    try {
      // A killed child of ours stays a zombie until reaped; it writes nothing more.
      return !readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.startsWith("Z");
    } catch {
      return false;
    }
  };
  while (pids.some(alive) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  return pids;
}
