/**
 * The `export` recipe (training/recipes/export): package a scored model as a verified
 * archive, described by export.json (package.py; the comparison is compare.py's).
 */
import { z } from "zod";
import { ZDirection, ZMetricName, ZSha256Hex, ref } from "./common";

export const ZPackageInput = z.strictObject({
  model: ref("output folder of a tabular.train job"),
  receipt: ref("the candidate's receipt.json (or the score job's output folder)"),
  baselineReceipt: ref("the baseline's receipt.json (or its folder)"),
  card: z
    .object({
      project: z.string().optional(),
      experiment: z.string().optional(),
      datasetName: z.string().optional(),
      trainingSeconds: z.number().optional(),
      resources: z.record(z.string(), z.unknown()).optional(),
      notes: z.string().optional(),
    })
    .describe("facts for MODEL_CARD.md that only the controller knows")
    .optional(),
});
/** The input as a caller writes it (defaulted fields optional). */
export type PackageJobInput = z.input<typeof ZPackageInput>;

/** compare.py compare_receipts: whether the candidate beat the baseline, from the receipts alone. */
export const ZReceiptComparison = z.union([
  z.strictObject({ comparable: z.literal(false), better: z.null(), reason: z.string() }),
  z.strictObject({
    comparable: z.literal(true),
    better: z.boolean(),
    reason: z.string(),
    primaryMetric: ZMetricName,
    direction: ZDirection,
    candidate: z.number(),
    baseline: z.number(),
    /** Signed so that positive always means better. */
    improvement: z.number(),
    contractSha256: ZSha256Hex,
  }),
]);

/** export.json: the archive, the names to use for it, and the comparison it was built on. */
export const ZExportSummary = z.strictObject({
  recipeVersion: z.string(),
  archive: z.literal("export.tar.gz"),
  /** The archive's one top folder; fileName is `<folder>.tar.gz`. */
  folder: z.string(),
  fileName: z.string(),
  loadingCommands: z.array(z.string()),
  sha256: ZSha256Hex,
  bytes: z.int().nonnegative(),
  files: z.int().nonnegative(),
  manifestSha256: ZSha256Hex,
  modelSha256: ZSha256Hex,
  contractSha256: ZSha256Hex.nullable(),
  comparison: ZReceiptComparison,
});
export type ExportSummary = z.infer<typeof ZExportSummary>;

export const exportRecipe = {
  /** export.tar.gz is copied and verified as bytes, never parsed. */
  package: { input: ZPackageInput, outputs: { "export.json": ZExportSummary } },
} as const;
