/**
 * Which reserved holdouts an experiment keeps out: the project's holdouts reserved by the
 * time it was created — for a search's trials and final, by the time the search was, so
 * every part of one search splits the data the same way. Pinned on the experiment row once
 * (experiments.service createAndAdvance), because its split's operation id is made from
 * them: a holdout reserved mid-run must not start a second split. A tabular run keeps out
 * the table holdouts (its split), a fine-tune the examples holdouts (its check_data).
 */
import { z } from "zod";
import { ZTableFormat } from "@/contracts/recipes";
import type { Db } from "@/server/db/client";
import { parseStoredJson } from "@/server/db/stored-json";

const ZSha = z.string().regex(/^[0-9a-f]{64}$/);
/** A table holdout (rows, in its table format): stored without a kind by every version. */
const ZPinnedTable = z.strictObject({ sha256: ZSha, format: ZTableFormat });
/** A file of examples (JSONL): its prompts are kept out of a fine-tune. */
const ZPinnedExamples = z.strictObject({ sha256: ZSha, kind: z.literal("examples") });
export const ZPinnedHoldouts = z.array(z.union([ZPinnedTable, ZPinnedExamples]));
export type PinnedHoldouts = z.infer<typeof ZPinnedHoldouts>;
export type PinnedTableHoldout = z.infer<typeof ZPinnedTable>;

export async function holdoutsToPin(db: Db, projectId: string, asOf: Date): Promise<PinnedHoldouts> {
  const rows = await db.holdout.findMany({ where: { projectId, createdAt: { lte: asOf } }, orderBy: { sha256: "asc" } });
  return rows.map((h) => (h.kind === "examples" ? { sha256: h.sha256, kind: "examples" as const } : { sha256: h.sha256, format: ZTableFormat.parse(JSON.parse(h.format)) }));
}

/** The experiment row's pinned list; a stored value that does not parse pins nothing it could name, so it fails loudly. */
export function pinnedHoldoutsOf(json: string): PinnedHoldouts {
  const parsed = parseStoredJson(ZPinnedHoldouts, json);
  if (!parsed) throw new Error(`an experiment's pinned holdouts do not parse: ${json.slice(0, 200)}`);
  return parsed;
}

/** The holdouts a tabular split keeps out. */
export const tableHoldouts = (p: PinnedHoldouts): PinnedTableHoldout[] => p.filter((h): h is PinnedTableHoldout => "format" in h);

/** The holdouts whose prompts a fine-tune keeps out. */
export const examplesHoldouts = (p: PinnedHoldouts): string[] => p.filter((h) => !("format" in h)).map((h) => h.sha256);

/** The holdout files a pipeline of this kind of dataset reads (copied to its computer before its jobs). */
export const holdoutBlobsFor = (dataset: "table" | "examples", p: PinnedHoldouts): string[] => (dataset === "table" ? tableHoldouts(p).map((h) => h.sha256) : examplesHoldouts(p));
