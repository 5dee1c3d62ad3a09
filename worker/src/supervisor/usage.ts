// Resource usage of a recipe's process group, sampled from /proc every ~500 ms.
// CPU: for every live member, utime+stime plus cutime+cstime (time of children it has
// reaped), summed; the maximum over samples. Peak PSS likewise (a job forked from a warm
// runner shares the runner's imported pages: RSS counts them whole, PSS its share). A process that dies between samples is
// still counted if a group member reaped it. Peak RSS: the largest sum of VmRSS over
// the group in one sample, or the leader's VmHWM if larger. Granularity = sample period.
import type { TProcessIdentity } from "../../../contracts/worker/receipt";
import { hwmBytes, jobGroupMembers, pssBytes, rssBytes } from "../proc";

const CLK_TCK = 100; // Linux USER_HZ on every mainstream architecture

export class UsageSampler {
  cpuSeconds = 0;
  peakRssBytes = 0;
  peakPssBytes = 0;
  /** The group's summed RSS in the latest sample (what a memory budget is checked against). */
  rssBytes = 0;

  /** `leader`: the recipe's identity; its pid is the group id (null: nothing to sample). */
  constructor(private readonly leader: TProcessIdentity | null) {}

  sample(): number {
    const members = jobGroupMembers(this.leader);
    const pgid = this.leader?.pid ?? -1;
    let ticks = 0;
    let rss = 0;
    let pss = 0;
    for (const m of members) {
      ticks += m.utime + m.stime + m.cutime + m.cstime;
      rss += rssBytes(m.pid);
      pss += pssBytes(m.pid);
    }
    const leaderHwm = members.some((m) => m.pid === pgid) ? hwmBytes(pgid) : 0;
    this.cpuSeconds = Math.max(this.cpuSeconds, ticks / CLK_TCK);
    this.rssBytes = rss;
    this.peakRssBytes = Math.max(this.peakRssBytes, rss, leaderHwm);
    this.peakPssBytes = Math.max(this.peakPssBytes, pss);
    return members.length;
  }
}
