/**
 * Which reserved holdouts an experiment's split keeps out: the project's holdouts reserved
 * by the time it was created — for a search's trials and final, by the time the search
 * was, so every part of one search splits the data the same way. Pinned on the experiment
 * row once (experiments.service createAndAdvance), because its split's operation id is made
 * from them: a holdout reserved mid-run must not start a second split.
 */
import { z } from "zod";
import { ZTableFormat } from "@/contracts/recipes";
import type { Db } from "@/server/db/client";
import { parseStoredJson } from "@/server/db/stored-json";

export const ZPinnedHoldouts = z.array(z.strictObject({ sha256: z.string().regex(/^[0-9a-f]{64}$/), format: ZTableFormat }));
export type PinnedHoldouts = z.infer<typeof ZPinnedHoldouts>;

export async function holdoutsToPin(db: Db, projectId: string, asOf: Date): Promise<PinnedHoldouts> {
  const rows = await db.holdout.findMany({ where: { projectId, createdAt: { lte: asOf } }, orderBy: { sha256: "asc" } });
  return rows.map((h) => ({ sha256: h.sha256, format: ZTableFormat.parse(JSON.parse(h.format)) }));
}

/** The experiment row's pinned list; a stored value that does not parse pins nothing it could name, so it fails loudly. */
export function pinnedHoldoutsOf(json: string): PinnedHoldouts {
  const parsed = parseStoredJson(ZPinnedHoldouts, json);
  if (!parsed) throw new Error(`an experiment's pinned holdouts do not parse: ${json.slice(0, 200)}`);
  return parsed;
}
