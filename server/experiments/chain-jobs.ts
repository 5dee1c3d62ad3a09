/**
 * Which job is which step of an experiment. Step jobs are found by operation id, never
 * by a stored list: `<experiment opId>:<step>`, or a shared id for steps that several
 * experiments reuse (the split of one snapshot with one setting). A shared job that
 * ended badly is not reused by another experiment: that one then runs its own.
 */
import type { Db } from "@/server/db/client";
import { ACTIVE_STATES } from "@/server/jobs/job-state";
import { ZJobResources } from "@/server/jobs/jobs.schema";
import type { ChainBase, StepSpec } from "./pipeline";
import { experimentsRepository } from "./experiments.repository";

export type StepJob = Awaited<ReturnType<Db["job"]["findMany"]>>[number];

export const ownOpId = (experimentOpId: string, step: string) => `${experimentOpId}:${step}`;

export function candidateOpIds<S extends string, C extends ChainBase<S>>(spec: StepSpec<S, C>, c: C): string[] {
  const own = ownOpId(c.opId, spec.name);
  return spec.sharedOpId ? [own, spec.sharedOpId(c)] : [own];
}

const BAD = new Set(["failed", "cancelled", "timed_out"]);

/** The job of each started step: the experiment's own first, else a usable shared one. */
export async function stepJobs<S extends string, C extends ChainBase<S>>(db: Db, steps: readonly StepSpec<S, C>[], c: C): Promise<Map<S, StepJob>> {
  const wanted = steps.flatMap((s) => candidateOpIds(s, c));
  const rows = await experimentsRepository(db).jobsByOpIds(wanted);
  const byOpId = new Map(rows.map((r) => [r.opId, r]));
  const out = new Map<S, StepJob>();
  for (const spec of steps) {
    const [own, shared] = candidateOpIds(spec, c);
    const ownJob = byOpId.get(own!);
    const sharedJob = shared ? byOpId.get(shared) : undefined;
    if (ownJob) out.set(spec.name, ownJob);
    // One this experiment admitted itself is its own step, however it ended: else its failure would start the step again.
    else if (sharedJob && (!BAD.has(sharedJob.state) || sharedJob.experimentId === c.experimentId)) out.set(spec.name, sharedJob);
  }
  return out;
}

const cpusOf = (resources: string): number => {
  try {
    const parsed = ZJobResources.safeParse(JSON.parse(resources));
    return parsed.success ? parsed.data.cpus : 1;
  } catch {
    return 1; // unreadable: count it as the smallest job, as admission does by default
  }
};

/**
 * The CPUs of a computer that no job holds or waits for now (the worker starts jobs in
 * order, so a queued job's CPUs are as good as taken).
 */
export async function freeCpus(db: Db, targetId: string, capacity: number): Promise<number> {
  const rows = await db.job.findMany({ where: { targetId, state: { in: ACTIVE_STATES } }, select: { resources: true } });
  const taken = rows.reduce((sum, r) => sum + cpusOf(r.resources), 0);
  return Math.max(0, capacity - taken);
}

/** The opId to admit a step under: the shared one unless it already ended badly. */
export function opIdToAdmit<S extends string, C extends ChainBase<S>>(spec: StepSpec<S, C>, c: C, sharedState: string | undefined): string {
  const [own, shared] = candidateOpIds(spec, c);
  if (shared && (sharedState === undefined || !BAD.has(sharedState))) return shared;
  return own!;
}
