/**
 * One name for an export everywhere: the download's file name, the name the CLI saves it
 * under, and the commands the model card inside the archive gives (`tar xzf <file>`,
 * `cd <folder>`, `python verify.py .`). The export recipe picks the archive's top folder
 * `<experiment>-<model sha[:12]>` and records `<folder>.tar.gz` and those commands in its
 * export.json; the controller passes them on instead of inventing names of its own.
 */
import { z } from "zod";

/** A bare file name a browser or shell can use as is: no folders, no quoting needed. */
const ZSafeName = z.string().regex(/^[A-Za-z0-9._-]{1,120}$/).refine((s) => !s.startsWith("."));

export const ZExportNames = z.object({
  folder: ZSafeName,
  fileName: ZSafeName.refine((s) => s.endsWith(".tar.gz")),
  loadingCommands: z.array(z.string().min(1).max(300)).min(1).max(20),
});
export type ExportNames = z.infer<typeof ZExportNames>;

/**
 * Names for an export whose recipe recorded none (exportVersion 1: files at the archive's
 * root): the experiment's name in safe characters plus the archive's short hash.
 */
export function legacyExportNames(experimentName: string, archiveSha256: string): ExportNames {
  const base = experimentName.normalize("NFKD").replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[-.]+|[-.]+$/g, "").slice(0, 60) || "model";
  const fileName = `${base}-${archiveSha256.slice(0, 12)}.tar.gz`;
  return {
    folder: "",
    fileName,
    loadingCommands: [`sha256sum ${fileName}`, `mkdir model && tar xzf ${fileName} -C model`, "cd model", "python verify.py ."],
  };
}

/** The names the package job recorded in export.json, or the legacy ones when it has none. */
export function exportNames(exportJson: unknown, experimentName: string, archiveSha256: string): ExportNames {
  const parsed = ZExportNames.safeParse(exportJson);
  return parsed.success ? parsed.data : legacyExportNames(experimentName, archiveSha256);
}
