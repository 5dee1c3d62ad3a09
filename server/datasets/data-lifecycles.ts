/**
 * Datasets, cached checks and split contracts as lifecycle stores (tables in
 * contracts/lifecycles/data.ts): every status change goes through server/lifecycle's
 * transition() and leaves a LifecycleEvent row.
 */
import { checkLifecycle, datasetLifecycle, splitLifecycle, type CheckStatus, type DatasetStatus, type SplitStatus } from "@/contracts/lifecycles";
import { recordIn } from "@/server/lifecycle/events";
import type { LifecycleRules, LifecycleStore, Tx } from "@/server/lifecycle/transition";
import type { CheckRow, DatasetRow, SplitRow } from "./datasets.repository";

export type DatasetPatch = Partial<Pick<DatasetRow, "error" | "profile" | "profileJobId" | "encoding">>;
export type CheckPatch = Partial<Pick<CheckRow, "jobId" | "result" | "error">>;
export type SplitPatch = Partial<Pick<SplitRow, "jobId" | "outputSha256" | "contract" | "error">>;

/** What a store needs of a Prisma model whose rows have an `id` and a `status`. */
interface StatusRows<P> {
  findUnique(args: { where: { id: string }; select: { status: true } }): PromiseLike<{ status: string } | null>;
  updateMany(args: { where: { id: string; status: string }; data: P & { status: string } }): PromiseLike<{ count: number }>;
}

function statusStore<S extends string, P>(lifecycle: LifecycleRules<S>, rows: (tx: Tx) => StatusRows<P>): LifecycleStore<S, P> {
  return {
    lifecycle,
    read: async (tx, id) => (await rows(tx).findUnique({ where: { id }, select: { status: true } }))?.status ?? null,
    write: async (tx, id, { from, to }, patch) => (await rows(tx).updateMany({ where: { id, status: from }, data: { ...patch, status: to } })).count,
    record: recordIn(lifecycle.name),
  };
}

export const datasetStore = statusStore<DatasetStatus, DatasetPatch>(datasetLifecycle, (tx) => tx.dataset);
export const checkStore = statusStore<CheckStatus, CheckPatch>(checkLifecycle, (tx) => tx.datasetCheck);
export const splitStore = statusStore<SplitStatus, SplitPatch>(splitLifecycle, (tx) => tx.splitContract);
