/**
 * What a queued job waits for, in the words a person reads: the one place they are made.
 * The worker's receipt says it typed (`waitingFor`: the resource, the numbers, the worker
 * job ids holding it); here each holder becomes what it belongs to — "Waiting for CPUs:
 * the fine-tune “Fine-tune #2” is using them (2 of 2 reserved; this needs 2)." A holder
 * this server does not know (another server's job, one it no longer has) is "another job".
 */
import { ZWaitingFor, type TWaitingFor } from "@/contracts/worker";
import type { Db } from "@/server/db/client";
import { jobOwnersRepository, type HolderJobRow } from "./job-owners.repository";

/** What a job holding a resource belongs to. */
export type JobOwner =
  | { kind: "experiment"; experimentKind: string; name: string }
  | { kind: "trial"; number: number; search: string }
  | { kind: "search_planner"; search: string }
  | { kind: "try_it"; name: string }
  | { kind: "deployment"; name: string }
  | { kind: "prediction" }
  | { kind: "setup"; recipe: string }
  | { kind: "job"; recipe: string; job: string }
  | { kind: "unknown" };

const EXPERIMENT_WORDS: Record<string, string> = {
  finetune: "the fine-tune",
  tabular: "the training",
  search_trial: "the search trial",
  search_baseline: "the search's final scoring",
};

export function ownerPhrase(o: JobOwner): string {
  switch (o.kind) {
    case "experiment":
      return `${EXPERIMENT_WORDS[o.experimentKind] ?? "the experiment"} “${o.name}”`;
    case "trial":
      return `trial ${o.number} of the search “${o.search}”`;
    case "search_planner":
      return `the planner of the search “${o.search}”`;
    case "try_it":
      return `a “Try it” answer of the fine-tune “${o.name}”`;
    case "deployment":
      return `the deployment “${o.name}”`;
    case "prediction":
      return "a prediction";
    case "setup":
      return `the setup of the ${o.recipe} tools`;
    case "job":
      return `the job ${o.recipe}.${o.job}`;
    case "unknown":
      return "another job";
  }
}

const RESOURCE: Record<TWaitingFor["resource"], { name: string; pronoun: string }> = {
  cpus: { name: "CPUs", pronoun: "them" },
  ram: { name: "memory", pronoun: "it" },
  gpus: { name: "GPUs", pronoun: "them" },
  gpu_memory: { name: "GPU memory", pronoun: "it" },
};

/** At most one decimal: CPU shares and GB are often fractions (0.5 CPUs). */
const num = (n: number) => String(Math.round(n * 10) / 10);

function amounts(w: TWaitingFor): string {
  switch (w.resource) {
    case "cpus":
      return `${num(w.reserved)} of ${num(w.capacity ?? 0)} reserved; this needs ${num(w.needs)}`;
    case "ram":
      return `${num(w.reserved)} of ${num(w.capacity ?? 0)} GB reserved; this needs ${num(w.needs)} GB`;
    case "gpus":
      return `${num(w.reserved)} of ${num(w.capacity ?? 0)} in use; this needs ${num(w.needs)}`;
    case "gpu_memory":
      return w.capacity === null
        ? `this needs ${num(w.needs)} GB on one GPU`
        : `${num(w.reserved)} of ${num(w.capacity)} GB reserved on the GPU with the most room; this needs ${num(w.needs)} GB`;
  }
}

const listWords = (items: string[]) => (items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`);

/** The sentence for one wait; `owners` are its holders' owners, in the worker's order. */
export function waitingSentence(w: TWaitingFor, owners: JobOwner[]): string {
  const r = RESOURCE[w.resource];
  // Two jobs of one run are that run once; unknown holders are counted, not named.
  const named = [...new Set(owners.filter((o) => o.kind !== "unknown").map(ownerPhrase))];
  const unknown = owners.filter((o) => o.kind === "unknown").length;
  const items = unknown === 0 ? named : [...named, unknown === 1 ? "another job" : `${unknown} other jobs`];
  if (!items.length) return `Waiting for ${r.name} (${amounts(w)}).`;
  const verb = named.length + unknown > 1 ? "are" : "is";
  return `Waiting for ${r.name}: ${listWords(items)} ${verb} using ${r.pronoun} (${amounts(w)}).`;
}

/** The stored JSON of Job.waitingFor, validated; null when absent or not of this shape. */
export function parseWaitingFor(text: string | null): TWaitingFor | null {
  if (!text) return null;
  try {
    const parsed = ZWaitingFor.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** A job as the words need it: a queued one with a typed wait gets a sentence. */
export interface WaitingJob {
  id: string;
  state: string;
  workerId: string | null;
  targetId: string;
  waitingFor: TWaitingFor | null;
}

const afterPrefix = (opId: string, prefix: string) => (opId.startsWith(prefix) ? opId.slice(prefix.length).split(":")[0] || null : null);
const TRY = ":try:";

/** What each holder job belongs to, by worker job id (what finetune.service, resident-serving, search-advance and predict-job name their jobs). */
async function ownersOf(db: Db, rows: HolderJobRow[]): Promise<Map<string, JobOwner>> {
  const repo = jobOwnersRepository(db);
  const experimentIds = rows.flatMap((r) => (r.experimentId ? [r.experimentId] : []));
  const tryOf = (r: HolderJobRow) => (!r.experimentId && r.opId.includes(TRY) ? r.opId.slice(0, r.opId.indexOf(TRY)) : null);
  const tryOpIds = rows.flatMap((r) => tryOf(r) ?? []);
  const releaseIds = rows.flatMap((r) => afterPrefix(r.opId, "serve:") ?? []);
  const plannerOf = (r: HolderJobRow) => (r.opId.includes(":suggest:") ? afterPrefix(r.opId, "search:") : null);
  const [experiments, trials, deployments] = await Promise.all([
    experimentIds.length || tryOpIds.length ? repo.experiments({ id: experimentIds, opId: tryOpIds }) : [],
    experimentIds.length ? repo.trialsOf(experimentIds) : [],
    releaseIds.length ? repo.deploymentsOfReleases(releaseIds) : new Map<string, string>(),
  ]);
  const searchIds = [...trials.map((t) => t.searchId), ...rows.flatMap((r) => plannerOf(r) ?? [])];
  const searchName = new Map((searchIds.length ? await repo.searches(searchIds) : []).map((s) => [s.id, s.name]));
  const experimentById = new Map(experiments.map((e) => [e.id, e]));
  const experimentByOpId = new Map(experiments.map((e) => [e.opId, e]));
  const trialOf = new Map(trials.map((t) => [t.experimentId, t]));

  const ownerOf = (r: HolderJobRow): JobOwner => {
    const experiment = r.experimentId ? experimentById.get(r.experimentId) : undefined;
    const trial = r.experimentId ? trialOf.get(r.experimentId) : undefined;
    if (trial && searchName.has(trial.searchId)) return { kind: "trial", number: trial.number, search: searchName.get(trial.searchId)! };
    if (experiment) return { kind: "experiment", experimentKind: experiment.kind, name: experiment.name };
    const tried = tryOf(r);
    if (tried && experimentByOpId.has(tried)) return { kind: "try_it", name: experimentByOpId.get(tried)!.name };
    const release = afterPrefix(r.opId, "serve:");
    if (release && deployments.has(release)) return { kind: "deployment", name: deployments.get(release)! };
    const planner = plannerOf(r);
    if (planner && searchName.has(planner)) return { kind: "search_planner", search: searchName.get(planner)! };
    if (r.opId.startsWith("predict:")) return { kind: "prediction" };
    if (r.jobName === "prepare") return { kind: "setup", recipe: r.recipe };
    return { kind: "job", recipe: r.recipe, job: r.jobName };
  };
  return new Map(rows.flatMap((r) => (r.workerJobId ? [[r.workerJobId, ownerOf(r)] as const] : [])));
}

/** The sentence for each queued job that waits for a resource, by job id (jobs without one are left out). */
export async function describeWaiting(db: Db, jobs: WaitingJob[]): Promise<Map<string, string>> {
  const waiting = jobs.filter((j): j is WaitingJob & { waitingFor: TWaitingFor } => j.state === "queued" && j.waitingFor !== null);
  const out = new Map<string, string>();
  if (!waiting.length) return out;
  // One query per worker: holders are that worker's job ids.
  const groups = new Map<string, typeof waiting>();
  for (const j of waiting) {
    const key = j.workerId ? `worker:${j.workerId}` : `target:${j.targetId}`;
    groups.set(key, [...(groups.get(key) ?? []), j]);
  }
  for (const group of groups.values()) {
    const first = group[0]!;
    const holderIds = group.flatMap((j) => j.waitingFor.holders);
    const rows = holderIds.length ? await jobOwnersRepository(db).holders({ workerId: first.workerId, targetId: first.targetId }, holderIds) : [];
    const owners = await ownersOf(db, rows);
    for (const j of group) out.set(j.id, waitingSentence(j.waitingFor, j.waitingFor.holders.map((h) => owners.get(h) ?? { kind: "unknown" })));
  }
  return out;
}

/** A Job row's fields the words need (the row stores waitingFor as JSON). */
export type WaitingRow = Omit<WaitingJob, "waitingFor"> & { waitingFor: string | null; queuedReason: string | null };

/**
 * What the first queued job among `rows` that says why it waits is waiting for, in words:
 * the holders' sentence when the worker said it typed, else the words it (or the
 * controller) gave; null when none says. A job queued behind another that does not fit
 * yet has no words of its own (the worker's queue does not skip ahead), so the next one
 * is asked.
 */
export async function firstWaiting(db: Db, rows: (WaitingRow | undefined)[]): Promise<string | null> {
  const queued = rows.filter((r): r is WaitingRow => r?.state === "queued");
  if (!queued.length) return null;
  const words = await describeWaiting(db, queued.map((r) => ({ ...r, waitingFor: parseWaitingFor(r.waitingFor) })));
  for (const r of queued) {
    const said = words.get(r.id) ?? r.queuedReason;
    if (said) return said;
  }
  return null;
}
