// Tests find the processes a job or an sshd left behind by reading /proc directly: what
// they look for (an environment variable, a parent pid) is in one of each process's files.
import { readdirSync, readFileSync } from "node:fs";

/** Pids whose /proc/<pid>/<file> satisfies `match`; a process that ends meanwhile, or is not ours to read, is skipped. */
export function pidsWhere(file: "environ" | "stat", match: (text: string) => boolean): number[] {
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
