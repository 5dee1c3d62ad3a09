/**
 * Split contracts: the same snapshot with the same settings (target, task, strategy,
 * seed, columns, fractions, table format) is one SplitContract row and one data.split
 * job, reused by every later caller. `ensureSplit` waits for it (the experiment chain);
 * `startSplit` returns at once (the UI).
 */
import type { Db } from "@/server/db/client";
import { badInput, DomainError } from "@/server/errors";
import { eventBus } from "@/server/events/bus";
import { intentHash } from "@/server/jobs/intent-hash";
import { datasetsRepository, type SplitRow } from "./datasets.repository";
import { ZEnsureSplitInput, type SetupProgress, type SplitView, type TEnsureSplitInput } from "./datasets.schema";
import { parseJson, snapshotRef } from "./datasets.views";
import { settleSplit } from "./settle";
import { datasetsService } from "./datasets.service";

function toSplitView(s: SplitRow): SplitView {
  return {
    id: s.id,
    status: s.status as SplitView["status"],
    error: s.error,
    jobId: s.jobId,
    settings: parseJson(s.settings),
    contract: parseJson(s.contract),
    splitRef: s.outputSha256 ? `sha256:${s.outputSha256}` : null,
    outputSha256: s.outputSha256,
  };
}

export async function startSplit(db: Db, raw: TEnsureSplitInput): Promise<SplitView & { setup: SetupProgress | null }> {
  const input = ZEnsureSplitInput.parse(raw);
  const repo = datasetsRepository(db);
  const d = await datasetsService(db).requireReady(input.datasetId);
  const names = new Set(d.columns.map((c) => c.name));
  for (const col of [input.target, input.groupColumn, input.timeColumn]) {
    if (col !== undefined && !names.has(col)) throw badInput(`${d.name} has no column "${col}".`, { code: "unknown_column" });
  }
  const jobInput = {
    dataset: snapshotRef(d.snapshotSha256),
    datasetFormat: d.datasetFormat,
    snapshotSha256: d.snapshotSha256,
    target: input.target,
    task: input.task,
    strategy: input.strategy,
    seed: input.seed,
    ...(input.groupColumn ? { groupColumn: input.groupColumn } : {}),
    ...(input.timeColumn ? { timeColumn: input.timeColumn } : {}),
    ...(input.fractions ? { fractions: input.fractions } : {}),
  };
  let row = await repo.splits.ensure(d.snapshotSha256, intentHash(jobInput), JSON.stringify(jobInput));
  if (row.status === "failed") row = await repo.splits.update(row.id, { status: "running", jobId: null, error: null, contract: null, outputSha256: null }) as SplitRow;
  const setup = await settleSplit(db, row);
  return { ...toSplitView((await repo.splits.findById(row.id))!), setup };
}

/** Resolves with the ready contract; rejects with the split's refusal in words. */
export async function ensureSplit(db: Db, raw: TEnsureSplitInput, opts: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<SplitView> {
  const deadline = Date.now() + (opts.timeoutMs ?? 3600_000);
  const repo = datasetsRepository(db);
  let v = await startSplit(db, raw);
  for (;;) {
    if (v.status === "ready") return v;
    if (v.status === "failed") throw badInput(`The split could not be made: ${v.error ?? "unknown error"}`, { code: "split_failed", splitContractId: v.id });
    if (opts.signal?.aborted) throw new DomainError("UNAVAILABLE", `Stopped waiting for split ${v.id} (its job goes on).`);
    if (Date.now() > deadline) throw new DomainError("UNAVAILABLE", `Split ${v.id} was not ready in time (its job goes on).`);
    await nextJobEvent(1000);
    const row = (await repo.splits.findById(v.id))!;
    v = { ...toSplitView(row), setup: null };
    if (row.status === "running" && !row.jobId) v = await startSplit(db, raw);
    else if (row.status === "running") {
      await settleSplit(db, row);
      v = { ...toSplitView((await repo.splits.findById(v.id))!), setup: null };
    }
  }
}

function nextJobEvent(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const off = eventBus().subscribe(["jobs"], () => done());
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      off();
      resolve();
    }
  });
}
