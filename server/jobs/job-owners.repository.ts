/**
 * Reads for waiting-words.ts: the server's jobs among a worker's job ids, and the names of
 * what each belongs to (experiments, search trials and searches, deployments). Rows of
 * those domains are only read here, with the few fields a sentence needs; reading them
 * through their own modules would make server/jobs import the domains that import it.
 */
import { getDb, type Db } from "@/server/db/client";

export interface HolderJobRow {
  workerJobId: string | null;
  opId: string;
  recipe: string;
  jobName: string;
  experimentId: string | null;
}

export function jobOwnersRepository(db: Db = getDb()) {
  const ids = (list: string[]) => ({ in: [...new Set(list)] });
  return {
    /**
     * The jobs with these worker job ids on one worker. A worker id names one ledger, so
     * two computers enrolled on the same worker match each other's jobs; a job admitted
     * before the worker id was known falls back to its computer.
     */
    holders: (on: { workerId: string | null; targetId: string }, workerJobIds: string[]): Promise<HolderJobRow[]> =>
      db.job.findMany({
        where: { workerJobId: ids(workerJobIds), ...(on.workerId ? { workerId: on.workerId } : { targetId: on.targetId }) },
        select: { workerJobId: true, opId: true, recipe: true, jobName: true, experimentId: true },
      }),
    experiments: (where: { id?: string[]; opId?: string[] }) =>
      db.experiment.findMany({
        where: { OR: [...(where.id?.length ? [{ id: ids(where.id) }] : []), ...(where.opId?.length ? [{ opId: ids(where.opId) }] : [])] },
        select: { id: true, opId: true, name: true, kind: true },
      }),
    trialsOf: (experimentIds: string[]) =>
      db.searchTrial.findMany({ where: { experimentId: ids(experimentIds) }, select: { experimentId: true, number: true, searchId: true } }),
    searches: (searchIds: string[]) => db.search.findMany({ where: { id: ids(searchIds) }, select: { id: true, name: true } }),
    deploymentsOfReleases: async (releaseIds: string[]): Promise<Map<string, string>> => {
      const releases = await db.deploymentRelease.findMany({ where: { id: ids(releaseIds) }, select: { id: true, deploymentId: true } });
      const deployments = await db.deployment.findMany({ where: { id: ids(releases.map((r) => r.deploymentId)) }, select: { id: true, name: true } });
      const name = new Map(deployments.map((d) => [d.id, d.name]));
      return new Map(releases.flatMap((r) => (name.has(r.deploymentId) ? [[r.id, name.get(r.deploymentId)!] as const] : [])));
    },
  };
}
