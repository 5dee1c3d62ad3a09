/**
 * A version's exclusion evidence (issue 32): the trained_rows.txt of the split its
 * experiment trained on — the normalised hashes of every row it learnt, was tuned and was
 * tested on — copied into the database at registration, so the version owns it and a
 * deleted experiment or a cleaned-up job folder cannot take it away. Checked against the
 * hash split.json recorded.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import { ZSplitContract } from "@/contracts/recipes";
import type { Db } from "@/server/db/client";
import { parseStoredJson } from "@/server/db/stored-json";
import { jobsRepository } from "@/server/jobs/jobs.repository";
import { readOutputBytes } from "@/server/jobs/read-output";

/** trained_rows.txt's first line (training/trainyard_recipe/row_hashes.py write_rows_file). */
const ZTrainedRowsHeader = z.object({ version: z.literal(1), columns: z.array(z.string()), rows: z.int().nonnegative() });

export interface TrainedRows {
  sha256: string;
  rows: number;
  content: Buffer;
  /** split.json's `holdouts` JSON. */
  holdouts: string;
}

/**
 * null when there is none to copy: a fine-tune, or a split made before splits listed their
 * rows. A split whose file cannot be read or does not match its hash is said in the log and
 * also gives null: registration goes on, and the version simply cannot claim a holdout score.
 */
export async function trainedRowsOfExperiment(db: Db, exp: { name: string; splitContractId: string | null }): Promise<TrainedRows | null> {
  if (!exp.splitContractId) return null;
  const split = await db.splitContract.findUnique({ where: { id: exp.splitContractId } });
  const contract = parseStoredJson(ZSplitContract, split?.contract ?? null);
  if (!split?.jobId || !contract?.trainedRowsFile || !contract.trainedRowsSha256) return null;
  try {
    const job = await jobsRepository(db).find(split.jobId);
    if (!job) throw new Error(`its split job ${split.jobId} is gone`);
    const content = await readOutputBytes(db, job, contract.trainedRowsFile);
    const sha256 = createHash("sha256").update(content).digest("hex");
    if (sha256 !== contract.trainedRowsSha256) throw new Error(`${contract.trainedRowsFile} does not match the hash split.json recorded`);
    const header = ZTrainedRowsHeader.safeParse(JSON.parse(content.subarray(0, content.indexOf(10)).toString("utf8")));
    if (!header.success) throw new Error(`${contract.trainedRowsFile} does not start with its header line`);
    return { sha256, rows: header.data.rows, content, holdouts: JSON.stringify(contract.holdouts ?? []) };
  } catch (err) {
    console.warn(`trainyard: "${exp.name}" is registered without the record of its trained rows (${(err as Error).message}); it cannot claim a holdout score.`);
    return null;
  }
}
