// Jobs that go to Slurm as the tasks of one job array (issue 33): a search's round of
// independent trials is one `sbatch --array=0-(N-1)%K`, so Slurm holds the round in its
// queue and runs K of its trainings at a time. Each task runs one worker job's supervisor,
// exactly as a job of its own would; only the submission is shared. The worker gathers a
// round's jobs as they are submitted and sends them once all have come, or once the first
// has waited ARRAY_GATHER_MS (a trial that failed before its training never comes): then
// the tasks that came go without it.
import fs from "node:fs";
import path from "node:path";
import type { TReceipt } from "../../../contracts/worker/receipt";
import type { TSlurmArrayMember, TSlurmSettings } from "../../../contracts/worker/slurm";
import { bundleEntry } from "../config";
import { nowIso } from "../fsx";
import type { Home } from "../home";
import { transition } from "../jobstate";
import { updateReceipt } from "../receipts";
import { batchCaseScript } from "./script";
import { runSlurm } from "./commands";
import { sbatchCommonArgs, slurmUnreached } from "./submit";

export const ARRAY_GATHER_MS = 20_000;

/** Slurm's job name for an array: how its tasks are found when the worker stopped before recording their ids. */
export const slurmArrayName = (group: string) => `trainyard-array-${group}`;

/**
 * sbatch's `--array` value for the tasks' indices: a range when they are contiguous
 * (`0-3%2`), else a list (`0,2,3%2`); `%limit` caps how many run at once.
 */
export function arraySpec(indices: readonly number[], limit: number): string {
  const sorted = [...new Set(indices)].sort((a, b) => a - b);
  const contiguous = sorted.every((v, i) => i === 0 || v === sorted[i - 1]! + 1);
  const body = contiguous && sorted.length > 1 ? `${sorted[0]}-${sorted.at(-1)}` : sorted.join(",");
  return `${body}%${limit}`;
}

export interface ArrayGathering {
  /** Groups whose queued jobs go to Slurm now, each as one array. */
  send: TReceipt[][];
  /** Queued jobs still waiting for the rest of their array, with why. */
  wait: { receipt: TReceipt; reason: string }[];
}

/**
 * Which queued array jobs go now. A group goes when every index of it has come (in any
 * state: one cancelled while it waited counts as come), or when its oldest queued job has
 * waited ARRAY_GATHER_MS. `all`: every receipt the worker has.
 */
export function gatherArrays(queued: readonly TReceipt[], all: readonly TReceipt[], now: number): ArrayGathering {
  const out: ArrayGathering = { send: [], wait: [] };
  const groups = new Map<string, TReceipt[]>();
  for (const q of queued) if (q.slurmArray) groups.set(q.slurmArray.group, [...(groups.get(q.slurmArray.group) ?? []), q]);
  for (const [group, members] of groups) {
    const size = members[0]!.slurmArray!.size;
    const came = new Set(all.filter((r) => r.slurmArray?.group === group).map((r) => r.slurmArray!.index)).size;
    const oldest = Math.min(...members.map((m) => Date.parse(m.createdAt)));
    if (came >= size || now - oldest >= ARRAY_GATHER_MS) out.send.push(members);
    else for (const receipt of members) out.wait.push({ receipt, reason: `waiting for the rest of its Slurm job array (${came} of ${size} jobs here; at most ${Math.ceil((ARRAY_GATHER_MS - (now - oldest)) / 1000)} s more)` });
  }
  return out;
}

/** The largest of the members' needs: one sbatch sizes every task alike. */
function largest(members: readonly TReceipt[]): Pick<TReceipt, "resources" | "deadlineSeconds" | "graceSeconds"> {
  const max = (f: (r: TReceipt) => number) => Math.max(...members.map(f));
  const gpus = max((r) => r.resources.gpus ?? 0);
  const gpuMemoryGb = max((r) => r.resources.gpuMemoryGb ?? 0);
  return {
    resources: { cpus: max((r) => r.resources.cpus), ramGb: max((r) => r.resources.ramGb), ...(gpus ? { gpus } : {}), ...(gpuMemoryGb ? { gpuMemoryGb } : {}) },
    deadlineSeconds: max((r) => r.deadlineSeconds),
    graceSeconds: max((r) => r.graceSeconds),
  };
}

/**
 * Hands admitted array jobs to one sbatch. Each job's receipt records its task's Slurm id
 * (`<array>_<index>`). A refusal fails them all with Slurm's words; sbatch that did not
 * reach the controller leaves them admitted with `slurmRetry` (each then goes on its own).
 */
export function submitArrayToSlurm(home: Home, settings: TSlurmSettings, members: readonly TReceipt[]): void {
  const first = members[0]!;
  const { group, limit } = first.slurmArray as TSlurmArrayMember;
  const dir = home.jobDir(first.jobId);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const script = path.join(dir, "slurm-array.sh");
  const tasks = members.map((m) => ({
    index: m.slurmArray!.index,
    log: path.join(home.jobDir(m.jobId), "slurm.log"),
    argv: [process.execPath, bundleEntry(), "supervise", "--home", home.root, "--job", m.jobId, "--in-slurm"],
  }));
  fs.writeFileSync(script, batchCaseScript(tasks), { mode: 0o700 });
  const spec = arraySpec(tasks.map((t) => t.index), limit);
  const args = ["--parsable", `--job-name=${slurmArrayName(group)}`, `--array=${spec}`, ...sbatchCommonArgs(home, settings, largest(members)), `--output=${path.join(dir, "slurm-array-%a.log")}`, script];
  const answer = runSlurm(settings, "sbatch", args, 60_000);
  const arrayId = answer.stdout.trim().split(";")[0] ?? "";
  if (!answer.ok || !/^\d+$/.test(arrayId)) {
    const error = `Slurm did not take the job array (sbatch --array=${spec} ${settings.partition}): ${answer.error || answer.stdout.trim()}`;
    for (const m of members) {
      if (slurmUnreached(error)) updateReceipt(home, m.jobId, (x) => (x.state === "admitted" && !x.slurm ? { ...x, slurmRetry: { error, at: nowIso() } } : null));
      else transition(home, m.jobId, "failed", "launch_failed", () => ({ detail: error }), ["admitted"]);
    }
    return;
  }
  const submittedAt = nowIso();
  for (const m of members) {
    updateReceipt(home, m.jobId, (x) => ({ ...x, slurmRetry: null, slurm: { jobId: `${arrayId}_${m.slurmArray!.index}`, partition: settings.partition, submittedAt, array: spec } }));
  }
}
