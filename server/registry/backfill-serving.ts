/**
 * The one-time copy that makes versions registered before versions kept their own serving
 * record self-contained (version-serving.ts): run in the background at every start, it
 * touches only versions whose record is still empty, so after the first start it finds
 * nothing (a version used before it reaches it is copied at that use). A version whose
 * experiment is already gone cannot be copied; it is named in the server log, and deploying
 * it is refused, saying why (servingOfVersion).
 */
import type { Db } from "@/server/db/client";
import { copyServingRecord } from "./version-serving";
import { registryRepository } from "./registry.repository";

export interface BackfillOutcome {
  copied: number;
  /** "version 2 of Peng: its experiment is gone" */
  unable: string[];
}

export async function backfillVersionServing(db: Db): Promise<BackfillOutcome> {
  const repo = registryRepository(db);
  const rows = await repo.versionsWithoutServing();
  const outcome: BackfillOutcome = { copied: 0, unable: [] };
  for (const row of rows) {
    const serving = await copyServingRecord(db, row);
    if (serving.ok) {
      outcome.copied++;
    } else {
      const model = await repo.modelNameOf(row.modelId);
      outcome.unable.push(`version ${row.number} of "${model?.name ?? row.modelId}": ${serving.reason}`);
    }
  }
  return outcome;
}

/** The server log's words for an outcome; null when there was nothing to do. */
export function backfillWords(o: BackfillOutcome): string | null {
  if (!o.copied && !o.unable.length) return null;
  const unable = o.unable.length ? `; ${o.unable.length} cannot be served any more (${o.unable.join("; ")})` : "";
  return `registry: ${o.copied} version(s) now keep their own serving record${unable}`;
}
