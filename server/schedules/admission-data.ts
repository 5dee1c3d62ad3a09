/**
 * The data of a run: a file is used once two looks `stableSeconds` apart saw the same size
 * and modification time (a file being copied is not new data), then snapshotted like a
 * registered path (the copy itself refuses a file that changes while it is read); a
 * dataset source is its newest upload. The same bytes under the same spec as the last
 * started run are a no-op, and the run's key (schedule, slot, data) is unique.
 */
import { ZFileObservation } from "@/contracts/schedules/schedules";
import { WORKER_PROTOCOL } from "@/contracts/worker";
import { parseStoredJson } from "@/server/db/stored-json";
import { registerPathOn } from "@/server/datasets/register";
import { isDomainError } from "@/server/errors";
import { targetsService } from "@/server/targets/targets.service";
import { WorkerRefused } from "@/server/targets/transport-errors";
import { decide, specHashOf, updateRun, type AdmissionCtx, type Step } from "./admission";
import { schedulesRepository } from "./schedules.repository";

export async function observing(ctx: AdmissionCtx): Promise<Step> {
  const source = ctx.source;
  if (source.kind === "dataset") {
    await updateRun(ctx, { step: "importing" });
    return "next";
  }
  const target = await targetsService(ctx.db).requireTarget(source.computerId);
  let seen;
  try {
    seen = await targetsService(ctx.db).execOn(target, { protocol: WORKER_PROTOCOL, op: "peek", path: source.path, maxRows: 1, maxBytes: 1 });
  } catch (err) {
    if (err instanceof WorkerRefused) {
      await decide(ctx, "refused", `${target.name} cannot read ${source.path}: ${err.message}`);
      return "done";
    }
    throw err;
  }
  const now = { bytes: seen.bytes, mtimeMs: seen.mtimeMs ?? 0, at: Date.now() };
  const before = parseStoredJson(ZFileObservation, ctx.run.observed);
  if (before && before.bytes === now.bytes && before.mtimeMs === now.mtimeMs) {
    if (now.at - before.at < source.stableSeconds * 1000) return "wait";
    await updateRun(ctx, { step: "importing", reason: null });
    return "next";
  }
  await updateRun(ctx, {
    observed: JSON.stringify(now),
    reason: before ? `${source.path} changed within ${source.stableSeconds} s: waiting until it stays unchanged.` : `Checking that ${source.path} is not still being written.`,
  });
  return "wait";
}

/** The run's data as a dataset of the project, or null when the decision was made here. */
async function dataOf(ctx: AdmissionCtx): Promise<{ datasetId: string; sha256: string } | null> {
  const source = ctx.source;
  if (source.kind === "dataset") {
    const d = await schedulesRepository(ctx.db).newestDatasetNamed(ctx.s.projectId, source.name);
    if (!d) {
      await decide(ctx, "no_op", `No dataset named "${source.name}" in the project yet.`);
      return null;
    }
    return { datasetId: d.id, sha256: d.snapshotSha256 };
  }
  const target = await targetsService(ctx.db).requireTarget(source.computerId);
  try {
    const got = await registerPathOn(ctx.db, target, { projectId: ctx.s.projectId, path: source.path, encoding: "utf-8" });
    return { datasetId: got.datasetId, sha256: got.snapshotSha256 };
  } catch (err) {
    if (!(isDomainError(err) && err.reason === "file_changed")) throw err;
    await updateRun(ctx, { step: "observing", observed: null, reason: `${source.path} changed while it was copied: waiting until it stays unchanged.` });
    return null;
  }
}

export async function importing(ctx: AdmissionCtx): Promise<Step> {
  const got = await dataOf(ctx);
  if (!got) return ctx.run.outcome === "admitting" ? "wait" : "done";
  const repo = schedulesRepository(ctx.db);
  const specHash = specHashOf(ctx.spec);
  const last = await repo.lastStarted(ctx.s.id);
  if (last && last.dataSha256 === got.sha256 && last.specHash === specHash) {
    await updateRun(ctx, { dataSha256: got.sha256, datasetId: got.datasetId });
    await decide(ctx, "no_op", `Data unchanged since run ${last.seq}.`);
    return "done";
  }
  try {
    await updateRun(ctx, {
      runKey: `${ctx.s.id}:${ctx.run.slotAt.toISOString()}:${got.sha256}`,
      dataSha256: got.sha256,
      datasetId: got.datasetId,
      specHash,
      step: "profiling",
      reason: "Reading the new data.",
    });
  } catch (err) {
    if ((err as { code?: string }).code !== "P2002") throw err;
    await decide(ctx, "no_op", "This slot already ran on this data.");
    return "done";
  }
  return "next";
}
