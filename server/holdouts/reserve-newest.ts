/**
 * The default holdout of a time-ordered task: a dataset's newest rows by its time column
 * (data.newest_rows, ties at the cut kept together), reserved like an uploaded file — the
 * same store, profile and SHA-256 pin. The dataset keeps those rows; what keeps them out of
 * training is the holdout itself: a time split started afterwards trains only on rows before
 * its first time, any other split leaves out its rows. The job runs where the dataset is
 * (This computer for an upload), at a person's priority, bounded.
 */
import { Readable } from "node:stream";
import { ZNewestRows } from "@/contracts/recipes";
import type { Db } from "@/server/db/client";
import { datasetsService } from "@/server/datasets";
import { badInput } from "@/server/errors";
import { readOutput, readOutputBytes } from "@/server/jobs/read-output";
import { runJobToEnd } from "@/server/jobs/job-to-end";
import { settingsService } from "@/server/settings/settings.service";
import { localTarget } from "@/server/datasets/local-store";
import { createHoldoutFromUpload } from "./create";
import { ZReserveNewestInput, type HoldoutView, type TReserveNewestInput } from "./holdouts.schema";

export async function reserveNewestRows(db: Db, raw: TReserveNewestInput): Promise<HoldoutView> {
  const input = ZReserveNewestInput.parse(raw);
  const d = await datasetsService(db).requireReady(input.datasetId);
  if (d.projectId !== input.projectId) throw badInput(`Dataset "${d.name}" belongs to another project.`, { code: "other_project" });
  if (!d.columns.some((c) => c.name === input.timeColumn)) throw badInput(`"${input.timeColumn}" is not a column of "${d.name}".`, { code: "unknown_column" });
  const local = await localTarget(db);
  const targetId = d.copies.some((c) => c.targetId === local.id) ? local.id : (d.copies[0]?.targetId ?? local.id);
  const fraction = input.percent / 100;
  const job = await runJobToEnd(db, {
    opId: `holdout.newest:${d.snapshotSha256}:${JSON.stringify([input.timeColumn, fraction])}`,
    targetId,
    recipe: "data",
    job: "newest_rows",
    input: { dataset: d.snapshotRef, datasetFormat: d.datasetFormat, timeColumn: input.timeColumn, fraction },
    label: `Taking the newest rows of ${d.name}`,
    timeoutMs: 20 * 60_000,
    ensureEnvironment: true,
  });
  const made = await readOutput(db, job, "newest.json", ZNewestRows);
  const limits = await settingsService(db).values();
  const bytes = await readOutputBytes(db, job, made.file, limits.uploadMaxBytes);
  const stem = d.name.replace(/\.(csv|tsv|txt|parquet)(\.gz)?$/i, "");
  return createHoldoutFromUpload(
    db,
    { projectId: input.projectId, fileName: `${stem}-newest-${input.percent}pct.${made.file.endsWith(".csv") ? "csv" : "parquet"}`, name: input.name ?? `${d.name} — newest ${input.percent}% (from ${input.timeColumn} ${made.from})`, encoding: "utf-8" },
    Readable.from([bytes]),
    bytes.length,
  );
}
