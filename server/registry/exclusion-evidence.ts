/**
 * A version's exclusion evidence (issue 32): the hashes of what its experiment trained, was
 * tuned and was tested on, copied into the database at registration so that the version owns
 * it and a deleted experiment or a cleaned-up job folder cannot take it away.
 *
 * - kind "rows" (tabular): the split's trained_rows.txt, normalised row hashes, checked
 *   against the hash split.json recorded;
 * - kind "prompts" (fine-tune): check_data's trained_prompts.txt, the hashes of the
 *   normalised prompts of its training and evaluation examples, checked against the hash
 *   checks.json recorded.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import { ZSplitContract } from "@/contracts/recipes";
import type { Db } from "@/server/db/client";
import { parseStoredJson } from "@/server/db/stored-json";
import type { ExperimentRow } from "@/server/experiments/experiments.repository";
import { fineTuneJobs } from "@/server/experiments/pipelines/lora-adapter";
import { parseFineTuneResults } from "@/server/experiments/pipelines/lora-results";
import { jobsRepository } from "@/server/jobs/jobs.repository";
import { readOutputBytes, type OutputJob } from "@/server/jobs/read-output";
import type { ExclusionKind } from "./exclusion-kind";

/** Each file's first line (row_hashes.py write_rows_file; check_data.py write_prompts_file), giving how many hashes follow. */
const HEADERS = {
  rows: z.object({ version: z.literal(1), columns: z.array(z.string()), rows: z.int().nonnegative() }).transform((h) => h.rows),
  prompts: z.object({ version: z.literal(1), rule: z.literal("normalised prompt"), prompts: z.int().nonnegative() }).transform((h) => h.prompts),
} satisfies Record<ExclusionKind, z.ZodType<number, unknown>>;

export interface ExclusionEvidence {
  kind: ExclusionKind;
  sha256: string;
  /** How many hashes the file lists. */
  entries: number;
  content: Buffer;
  /** Which reserved holdouts its data kept out, as JSON (split.json's `holdouts`; checks.json's `holdout`). */
  holdouts: string;
}

interface EvidenceFile {
  kind: ExclusionKind;
  job: OutputJob | null;
  file: string;
  sha256: string;
  holdouts: unknown;
}

/** Where an experiment's evidence file is and the hash its step recorded; null when its step recorded none. */
async function evidenceFileOf(db: Db, exp: ExperimentRow): Promise<EvidenceFile | null> {
  if (exp.kind === "finetune") {
    const checks = parseFineTuneResults(exp.results)?.checks;
    if (!checks?.trainedPromptsFile || !checks.trainedPromptsSha256) return null;
    const job = (await fineTuneJobs(db, exp)).get("check_data") ?? null;
    return { kind: "prompts", job, file: checks.trainedPromptsFile, sha256: checks.trainedPromptsSha256, holdouts: checks.holdout ?? null };
  }
  if (!exp.splitContractId) return null;
  const split = await db.splitContract.findUnique({ where: { id: exp.splitContractId } });
  const contract = parseStoredJson(ZSplitContract, split?.contract ?? null);
  if (!split?.jobId || !contract?.trainedRowsFile || !contract.trainedRowsSha256) return null;
  const job = await jobsRepository(db).find(split.jobId);
  return { kind: "rows", job, file: contract.trainedRowsFile, sha256: contract.trainedRowsSha256, holdouts: contract.holdouts ?? [] };
}

/**
 * null when there is none to copy: a split or a fine-tune's checks made before they listed
 * their hashes. A file that cannot be read or does not match its hash is said in the log and
 * also gives null: registration goes on, and the version simply cannot claim a holdout score.
 */
export async function exclusionEvidenceOf(db: Db, exp: ExperimentRow): Promise<ExclusionEvidence | null> {
  const found = await evidenceFileOf(db, exp);
  if (!found) return null;
  try {
    if (!found.job) throw new Error(`the job that wrote ${found.file} is gone`);
    const content = await readOutputBytes(db, found.job, found.file);
    const sha256 = createHash("sha256").update(content).digest("hex");
    if (sha256 !== found.sha256) throw new Error(`${found.file} does not match the hash its step recorded`);
    const entries = HEADERS[found.kind].safeParse(JSON.parse(content.subarray(0, content.indexOf(10)).toString("utf8")));
    if (!entries.success) throw new Error(`${found.file} does not start with its header line`);
    return { kind: found.kind, sha256, entries: entries.data, content, holdouts: JSON.stringify(found.holdouts) };
  } catch (err) {
    console.warn(`trainyard: "${exp.name}" is registered without its exclusion evidence (${(err as Error).message}); it cannot claim a holdout score.`);
    return null;
  }
}
