/**
 * Deleting a reserved holdout: how the owner undoes a reservation (the wrong file, rows to
 * give back to training). Its rows are then free: experiments started afterwards no longer
 * keep them out, and comparisons use the project's other holdouts. Refused while anything
 * still reads them: an experiment that pinned it and has not ended, a search whose later
 * trials would, a job reading its file when that file would leave. Its file leaves every
 * computer's store, unless a dataset or another project's holdout holds the same bytes.
 * Evidence already recorded (a candidate's holdout win, the rows an export's split kept out)
 * stays as it was.
 */
import { searchLifecycle } from "@/contracts/lifecycles";
import type { Db } from "@/server/db/client";
import { datasetsRepository } from "@/server/datasets/datasets.repository";
import { conflict, notFound } from "@/server/errors";
import { isExperimentTerminal } from "@/server/experiments/experiment-state";
import { targetFor } from "@/server/targets/target-for";
import { targetsRepository } from "@/server/targets/targets.repository";
import { holdoutsRepository, type HoldoutRow } from "./holdouts.repository";
import type { HoldoutDeletePreview, HoldoutDeleteResult } from "./holdouts.schema";

async function requireHoldout(db: Db, id: string): Promise<HoldoutRow> {
  const h = await holdoutsRepository(db).find(id);
  if (!h) throw notFound(`No holdout ${id}.`);
  return h;
}

export const holdoutDeletePreview = async (db: Db, id: string) => previewOf(db, await requireHoldout(db, id));

async function previewOf(db: Db, h: HoldoutRow): Promise<HoldoutDeletePreview> {
  const repo = holdoutsRepository(db);
  const [experiments, searches, jobs, others] = await Promise.all([
    repo.experimentsPinning(h.projectId, h.sha256),
    // Searches are of tables: they keep out holdouts of rows, never a file of examples.
    h.kind === "examples" ? [] : repo.searchesSince(h.projectId, h.createdAt),
    datasetsRepository(db).references.activeJobsUsing(h.sha256),
    repo.otherHoldersOf(h.sha256, h.id),
  ]);
  const removesFile = others === 0;
  const blockers: HoldoutDeletePreview["blockers"] = [
    ...experiments.filter((e) => !isExperimentTerminal(e.status)).map((e) => ({ kind: "experiment" as const, id: e.id, label: `experiment "${e.name}" is ${e.status} and keeps these rows out` })),
    ...searches.filter((x) => !searchLifecycle.isTerminal(x.status)).map((x) => ({ kind: "search" as const, id: x.id, label: `search "${x.name}" is ${x.status} and its trials keep these rows out` })),
    // A job reading the bytes only loses something when the file leaves: while a dataset or
    // another holdout holds them (its profile, a training on it), the file stays put.
    ...(removesFile ? jobs : []).map((j) => ({ kind: "job" as const, id: j.id, label: `job ${j.id} (${j.recipe}.${j.jobName}) is ${j.state} and reads these rows` })),
  ];
  return { holdoutId: h.id, name: h.name, rows: h.rows, removesFile, blockers, canDelete: blockers.length === 0 };
}

export async function deleteHoldout(db: Db, id: string): Promise<HoldoutDeleteResult> {
  const h = await requireHoldout(db, id);
  const preview = await previewOf(db, h);
  if (!preview.canDelete) throw conflict(`The holdout "${preview.name}" cannot be deleted now: ${preview.blockers.map((b) => b.label).join("; ")}.`, { blockers: preview.blockers });
  await holdoutsRepository(db).remove(id);
  return { ...preview, copiesLeft: preview.removesFile ? await removeEverywhere(db, h.sha256) : [] };
}

/**
 * A holdout's file is sent wherever its comparisons and the splits that keep it out run, and
 * no copy is recorded: each computer is asked (its worker's `gc`, which keeps a blob an active
 * job reads). Best effort: what stayed where, and why, is returned.
 */
async function removeEverywhere(db: Db, sha256: string): Promise<{ computer: string; reason: string }[]> {
  const left: { computer: string; reason: string }[] = [];
  for (const t of await targetsRepository(db).list()) {
    if (t.unreachableSince) {
      // Asking would wait for its timeout; what it holds is said instead.
      left.push({ computer: t.name, reason: `not asked: ${t.name} has not answered lately (a copy there, if any, stays)` });
      continue;
    }
    try {
      if ((await targetFor(t, db).removeBlobs([sha256])).some((r) => r.outcome === "in_use")) left.push({ computer: t.name, reason: `a job on ${t.name} is reading it` });
    } catch (err) {
      left.push({ computer: t.name, reason: (err as Error).message });
    }
  }
  return left;
}
