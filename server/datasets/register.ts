/**
 * Getting data in. Two ways, one result — an immutable snapshot named by the SHA-256 of
 * its bytes, a record of which computer holds it, and a project dataset that uses it,
 * whose profile job starts at once:
 * - upload: the body is streamed into the shared store while it is hashed and checked
 *   (store-upload.ts: stored once, verified by the worker's `put`);
 * - path: the worker's `import` job snapshots a file inside its allowed roots (it checks
 *   the path itself, reads only what it checked, detects a file that changes during the
 *   copy); `importOnTarget` starts it and waits for it (import-job.ts).
 * Registering the same bytes again reuses the snapshot (and, in one project, the dataset).
 * A `.jsonl` file (or one registered with kind "examples") is a file of examples for
 * fine-tuning: checked as lines (no header, no columns), always read as UTF-8 (JSON is),
 * and profiled by llm-lora.profile_examples (dataset-kind.ts).
 */
import path from "node:path";
import type { Db } from "@/server/db/client";
import { badInput } from "@/server/errors";
import { publish } from "@/server/events/bus";
import { projectsService } from "@/server/projects/projects.service";
import { settingsService } from "@/server/settings/settings.service";
import { targetsService } from "@/server/targets/targets.service";
import type { TargetRow } from "@/server/targets/targets.repository";
import { datasetKindOf, type DatasetKind } from "./dataset-kind";
import { datasetsRepository, type DatasetRow } from "./datasets.repository";
import { ZRegisterPathInput, ZUploadQuery, type TRegisterPathInput, type TUploadQuery } from "./datasets.schema";
import { ensureBlobHere } from "./copies";
import { importOnTarget } from "./import-job";
import { localTarget } from "./local-store";
import { settleDataset } from "./settle";
import { storeUpload, workerTrouble } from "./store-upload";
import { reportUnlessUnreachable } from "@/server/targets/unreachable";

const REFUSAL_HINTS: Record<string, string> = {
  path_not_allowed: "Add its folder under Settings → Data → Allowed folders, or upload the file instead.",
  not_found: "Check the spelling; the path is on the training computer, not in your browser.",
  not_a_regular_file: "Only regular files can be registered.",
  file_changed: "Wait until the program writing it has finished, then register it again.",
};

async function workerIdOf(db: Db, t: TargetRow): Promise<string> {
  if (t.workerId) return t.workerId;
  return (await targetsService(db).freshProbe(t.id, 300_000)).probe.workerId;
}

/** Records the snapshot, its copy on `target`, and the project's dataset (reused when the bytes are known). */
async function registerSnapshot(
  db: Db,
  a: { projectId: string; sha256: string; bytes: number; target: TargetRow; name: string; sourceKind: "upload" | "path"; sourceName: string; kind: DatasetKind; encoding: "utf-8" | "latin-1" },
): Promise<{ dataset: DatasetRow; reused: boolean }> {
  const repo = datasetsRepository(db);
  await repo.snapshots.ensure(a.sha256, a.bytes);
  await repo.snapshots.addCopy(a.sha256, await workerIdOf(db, a.target), a.target.id);
  let existing = await repo.datasets.findInProject(a.projectId, a.sha256);
  if (existing) {
    // Same bytes again: reuse. Asked to read them another way (Latin-1): profile again.
    if (existing.encoding !== a.encoding && existing.status !== "profiling") {
      existing = await repo.datasets.reprofile(existing.id, a.encoding, `registered again, read as ${a.encoding}`);
      await settleDataset(db, existing).catch(reportUnlessUnreachable(`settling dataset ${existing.id}`));
    }
    return { dataset: (await repo.datasets.find(existing.id))!, reused: true };
  }
  let dataset: DatasetRow;
  try {
    dataset = await repo.datasets.create({ projectId: a.projectId, name: a.name, snapshotSha256: a.sha256, sourceKind: a.sourceKind, sourceName: a.sourceName, kind: a.kind, encoding: a.encoding });
  } catch (err) {
    const again = await repo.datasets.findInProject(a.projectId, a.sha256); // a concurrent identical upload won
    if (again) return { dataset: again, reused: true };
    throw err;
  }
  publish({ type: "dataset.changed", datasetId: dataset.id, projectId: a.projectId });
  // Early, to save a wait: the data-steps reconciler settles it in any case.
  await settleDataset(db, dataset).catch(reportUnlessUnreachable(`settling dataset ${dataset.id}`));
  return { dataset: (await repo.datasets.find(dataset.id))!, reused: false };
}

export interface RegisterResult {
  datasetId: string;
  snapshotSha256: string;
  bytes: number;
  reused: boolean;
}

export async function registerUpload(
  db: Db,
  raw: TUploadQuery,
  body: AsyncIterable<Uint8Array>,
  contentLength: number | null,
): Promise<RegisterResult> {
  const q = ZUploadQuery.parse(raw);
  const kind = datasetKindOf(q.fileName, q.kind);
  const encoding = kind === "examples" ? "utf-8" : q.encoding;
  await projectsService(db).get(q.projectId);
  const settings = settingsService(db);
  const [limits, faults] = await Promise.all([settings.values(), settings.uploadFaults()]);
  const up = await storeUpload(db, body, {
    fileName: q.fileName,
    maxBytes: limits.uploadMaxBytes,
    capHint: " (Settings → Data)",
    expectedBytes: contentLength,
    content: { shape: kind === "examples" ? "lines" : "table", encoding, maxLineBytes: limits.maxLineBytes, maxColumns: limits.maxColumns },
    enospcAfterBytes: faults.enospcAfterBytes,
  });
  const r = await registerSnapshot(db, {
    projectId: q.projectId,
    sha256: up.sha256,
    bytes: up.bytes,
    target: up.target,
    name: q.fileName,
    sourceKind: "upload",
    sourceName: q.fileName,
    kind,
    encoding,
  });
  return { datasetId: r.dataset.id, snapshotSha256: up.sha256, bytes: up.bytes, reused: r.reused };
}

/** Quick controller-side check for a clear message; the worker checks again (realpath, file type). */
export function checkPathAgainstRoots(p: string, roots: string[]): void {
  if (!path.isAbsolute(p)) throw badInput(`The path ${p} must be absolute (start with /).`, { code: "path_not_allowed" });
  if (p.split(/[\\/]/).includes("..")) throw badInput(`The path ${p} contains '..', which is not allowed.`, { code: "path_not_allowed" });
  if (roots.length === 0) {
    throw badInput("No folder is allowed for registering files by path. An owner can add one under Settings → Data → Allowed folders; or upload the file.", {
      code: "path_not_allowed",
    });
  }
  const inside = roots.some((r) => {
    const rel = path.relative(r, path.normalize(p));
    return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
  });
  if (!inside) throw badInput(`${p} is outside the allowed folders (${roots.join(", ")}).`, { code: "path_not_allowed" });
}

export async function registerPath(db: Db, raw: TRegisterPathInput): Promise<RegisterResult> {
  const input = ZRegisterPathInput.parse(raw);
  await projectsService(db).get(input.projectId);
  const settings = settingsService(db);
  const view = await settings.get(); // also makes the worker's allowedRoots follow the setting
  checkPathAgainstRoots(input.path, view.values.allowedRoots);
  return registerPathOn(db, await localTarget(db), input);
}

/**
 * A file on `target` (This computer or an SSH computer, whose worker checks the path
 * against its own allowed folders) snapshotted into the project: a schedule's source.
 */
export async function registerPathOn(db: Db, target: TargetRow, input: TRegisterPathInput): Promise<RegisterResult> {
  const kind = datasetKindOf(input.path, input.kind);
  let res;
  try {
    res = await importOnTarget(db, target, input.path);
  } catch (err) {
    throw workerTrouble(err, `to copy ${input.path}`, target.name, REFUSAL_HINTS);
  }
  if (res.bytes === 0) throw badInput(`${input.path} is empty: there is nothing to train on.`, { code: "empty_file" });
  // A file snapshotted on a server is read by the data jobs here too.
  await ensureBlobHere(db, target, res.sha256, res.bytes);
  const r = await registerSnapshot(db, {
    projectId: input.projectId,
    sha256: res.sha256,
    bytes: res.bytes,
    target,
    name: path.basename(input.path),
    sourceKind: "path",
    sourceName: input.path,
    kind,
    encoding: kind === "examples" ? "utf-8" : input.encoding,
  });
  return { datasetId: r.dataset.id, snapshotSha256: res.sha256, bytes: res.bytes, reused: r.reused };
}
