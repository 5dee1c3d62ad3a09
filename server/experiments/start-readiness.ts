/**
 * Reads a dataset's stored profile through its zod schema and applies the target rules
 * (target-readiness.ts): for the wizard's question "can I start?" and for the refusal in
 * experiments.start. A dataset still being profiled has no answer yet (CONFLICT).
 */
import type { Db } from "@/server/db/client";
import { requireTable } from "@/server/datasets/dataset-kind";
import { ZProfile, type TProfile } from "@/server/datasets/profile.schema";
import { badInput, conflict, notFound } from "@/server/errors";
import { experimentsRepository } from "./experiments.repository";
import { ZReadinessInput, type TReadinessInput } from "./readiness.schema";
import { idLikeColumns, refusalText, targetReadiness, type ReadinessSettings, type TargetReadiness } from "./target-readiness";

interface DatasetRowLike {
  id: string;
  name: string;
  /** "table" | "examples": a file of examples is refused here, before its profile is read as a table's. */
  kind: string;
  status: string;
  profile: string | null;
}

/** The parsed profile of a profiled dataset; refuses one that is still being read or failed. */
export function profileOf(d: DatasetRowLike): TProfile {
  requireTable(d, "a prediction model");
  if (d.status === "profiling") throw conflict(`Dataset ${d.name} is still being profiled; try again when it is ready.`, { datasetId: d.id });
  if (d.status === "failed" || !d.profile) throw badInput(`The dataset "${d.name}" could not be read; choose another file.`);
  const parsed = ZProfile.safeParse(JSON.parse(d.profile));
  // A profile this version cannot read (written by an older recipe): profiling again fixes it.
  if (!parsed.success) throw badInput(`The profile of "${d.name}" is in a form this version cannot read; upload the file again to profile it anew.`, { code: "profile_unreadable" });
  return parsed.data;
}

/** Throws BAD_INPUT with every reason when the settings cannot train; returns the warnings otherwise. */
export function requireTrainable(d: DatasetRowLike, settings: ReadinessSettings): TargetReadiness {
  const r = targetReadiness(profileOf(d), settings);
  if (r.refusals.length) {
    throw badInput(`Cannot train on ${d.name} with ${settings.target} as the column to predict: ${refusalText(r)}`, { code: r.refusals[0]!.code, refusals: r.refusals });
  }
  return r;
}

async function datasetRow(db: Db, id: string): Promise<DatasetRowLike> {
  const d = await experimentsRepository(db).dataset(id);
  if (!d) throw notFound(`There is no dataset with id ${id}. It may have been deleted.`);
  return d;
}

export async function readiness(db: Db, raw: TReadinessInput): Promise<TargetReadiness & { ready: boolean }> {
  const input = ZReadinessInput.parse(raw);
  const r = targetReadiness(profileOf(await datasetRow(db, input.datasetId)), input);
  return { ...r, ready: r.refusals.length === 0 };
}

export async function targetOptions(db: Db, datasetId: string): Promise<{ idLike: { name: string; reason: string }[] }> {
  return { idLike: idLikeColumns(profileOf(await datasetRow(db, datasetId))) };
}
