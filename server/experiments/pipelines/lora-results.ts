/**
 * What a fine-tuning experiment keeps once its chain is done: the base's identity, the data
 * checks, the preflight, the training summary, the trusted receipt (base vs adapter), the
 * resources per step, and the verified export copied into the controller's artifacts
 * folder. Each file is read through its recipe contract, stored as JSON on the experiment
 * row, and parsed with ZFineTuneResults when read back.
 */
import { z } from "zod";
import { ZLoraBase, ZLoraChecks, ZLoraExport, ZLoraPreflight, ZLoraReceipt, ZLoraTraining } from "@/contracts/recipes";
import { ZUsage } from "@/contracts/worker";
import type { Db } from "@/server/db/client";
import { parseStoredJson } from "@/server/db/stored-json";
import { readOutput } from "@/server/jobs/read-output";
import type { StepJob } from "../chain-jobs";
import { ZExportNames } from "../export-names";
import { keepExportArchive } from "../chain-results";
import { LORA_STEPS, type LoraStep } from "./lora-steps";

/** base.json without its file list (the page shows the identity, not every file). */
export const ZBaseSummary = z.union([ZLoraBase.options[0].omit({ files: true }), ZLoraBase.options[1].omit({ files: true })]);

export const ZFineTuneResults = z.object({
  base: ZBaseSummary,
  checks: ZLoraChecks,
  preflight: ZLoraPreflight,
  training: ZLoraTraining,
  receipt: ZLoraReceipt,
  usage: z.partialRecord(z.enum(LORA_STEPS), ZUsage.nullable()),
  budgetNote: z.string().nullable().optional(),
  export: ZExportNames.extend({ sha256: z.string(), bytes: z.number(), adapterSha256: z.string() }),
});
export type FineTuneResults = z.infer<typeof ZFineTuneResults>;

export const parseFineTuneResults = (json: string | null): FineTuneResults | null => parseStoredJson(ZFineTuneResults, json);

export function withoutFiles(base: z.infer<typeof ZLoraBase>): z.infer<typeof ZBaseSummary> {
  const { files: _files, ...summary } = base;
  return summary;
}

export async function collectFineTune(db: Db, experimentId: string, jobs: Map<LoraStep, StepJob>): Promise<FineTuneResults> {
  const job = (s: LoraStep) => {
    const j = jobs.get(s);
    if (!j) throw new Error(`step ${s} has no job`);
    return j;
  };
  // Each read is a worker call: all at once, they are independent.
  const [base, checks, preflight, training, receipt, exportJson, copied] = await Promise.all([
    readOutput(db, job("import_base"), "base.json", ZLoraBase),
    readOutput(db, job("check_data"), "checks.json", ZLoraChecks),
    readOutput(db, job("preflight"), "preflight.json", ZLoraPreflight),
    readOutput(db, job("train"), "training.json", ZLoraTraining),
    readOutput(db, job("evaluate"), "receipt.json", ZLoraReceipt),
    readOutput(db, job("export"), "export.json", ZLoraExport),
    keepExportArchive(db, job("export"), experimentId),
  ]);
  const usage: FineTuneResults["usage"] = {};
  for (const [step, j] of jobs) usage[step] = parseStoredJson(ZUsage, j.usage);
  return {
    base: withoutFiles(base),
    checks,
    preflight,
    training,
    receipt,
    usage,
    export: {
      sha256: copied.sha256,
      bytes: copied.bytes,
      adapterSha256: exportJson.adapterSha256,
      folder: exportJson.folder,
      fileName: exportJson.fileName,
      loadingCommands: exportJson.loadingCommands,
    },
  };
}
