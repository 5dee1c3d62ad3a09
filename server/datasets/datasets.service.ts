/**
 * Datasets of a project: list and read them, preview, profile status (with the data
 * tools' setup progress on first use), checks for a target, split contracts, and
 * deletion with a preview of what is freed. Registration lives in register.ts, the
 * folding of finished jobs into rows in settle.ts, splits in splits.ts (which imports
 * nothing of this file: it gets the ready dataset from here).
 */
import { WORKER_PROTOCOL } from "@/contracts/worker";
import type { TableFormat } from "@/contracts/recipes";
import { getDb, type Db } from "@/server/db/client";
import { badInput, conflict, notFound, unavailable } from "@/server/errors";
import { publish } from "@/server/events/bus";
import { jobsService } from "@/server/jobs/jobs.service";
import { projectsService } from "@/server/projects/projects.service";
import { targetsService } from "@/server/targets/targets.service";
import { WorkerRefused, WorkerUnreachable } from "@/server/targets/transport";
import { datasetsRepository, type CheckRow, type DatasetRow } from "./datasets.repository";
import {
  ZChecksInput,
  type ChecksView,
  type DatasetDetailView,
  type DatasetError,
  type DatasetView,
  type DeletePreviewView,
  type DeleteResultView,
  type PreviewView,
  type ProfileStatusView,
  type TChecksInput,
  type TEnsureSplitInput,
  type TRegisterPathInput,
  type TUploadQuery,
} from "./datasets.schema";
import { parseJson, storedChecks, storedProfile, toDatasetView } from "./datasets.views";
import { removeCopies, serverCopiesOf } from "./copies";
import { localTarget } from "./local-store";
import { previewFromLines, previewOfExamples } from "./preview";
import { requireExamples, requireTable, storedExamples, storedKind } from "./dataset-kind";
import { registerPath, registerUpload } from "./register";
import { settleCheck, settleDataset } from "./settle";
import { recordSplit, startSplit, type TRecordSplitInput } from "./splits";
import { reportUnlessUnreachable } from "@/server/targets/unreachable";

const PREVIEW_ROWS = 20;

export function datasetsService(db: Db = getDb()) {
  const repo = datasetsRepository(db);

  async function requireRow(id: string): Promise<DatasetRow> {
    const d = await repo.datasets.find(id);
    if (!d) throw notFound(`There is no dataset with id ${id}. It may have been deleted.`);
    return d;
  }

  async function view(d: DatasetRow): Promise<DatasetView> {
    const s = await repo.snapshots.find(d.snapshotSha256);
    if (!s) throw notFound(`The snapshot of dataset ${d.name} is missing.`);
    const [copies, usedBy] = await Promise.all([repo.snapshots.copies(s.sha256), repo.references.experimentsUsing(d.id)]);
    return toDatasetView(d, s, copies, usedBy);
  }

  async function get(id: string): Promise<DatasetDetailView> {
    let d = await requireRow(id);
    if (d.status === "profiling") {
      // Settling here only saves a wait: a pass that fails (a worker that does not answer)
      // leaves the row as stored, the data-steps reconciler tries again (its job's change, its sweep),
      // and the read below still fails loudly when the database does.
      await settleDataset(db, d).catch(reportUnlessUnreachable(`settling dataset ${d.id}`));
      d = await requireRow(id);
    }
    const examples = storedKind(d.kind) === "examples";
    return { ...(await view(d)), profile: examples ? null : storedProfile(d.profile), examples: examples ? storedExamples(d.profile) : null };
  }

  /** A profiled dataset, or why not (read failed; still profiling). */
  async function requireProfiled(id: string): Promise<DatasetDetailView> {
    const d = await get(id);
    if (d.status === "failed") throw badInput(`Dataset ${d.name} could not be read: ${d.error?.message ?? "unknown error"}`, { code: d.error?.code });
    if (d.status !== "ready") throw conflict(`Dataset ${d.name} is still being ${d.kind === "examples" ? "read" : "profiled"}; try again when it is ready.`, { datasetId: id });
    return d;
  }

  /** A table the chain can use: profiled, with its table format. An examples dataset is refused. */
  async function requireReady(id: string): Promise<DatasetDetailView & { datasetFormat: TableFormat }> {
    const d = await requireProfiled(id);
    requireTable(d, "a prediction model");
    if (!d.datasetFormat) throw conflict(`Dataset ${d.name} is still being profiled; try again when it is ready.`, { datasetId: id });
    return { ...d, datasetFormat: d.datasetFormat };
  }

  /** A file of examples a fine-tuning experiment can use: read by profile_examples, with at least one usable example. */
  async function requireReadyExamples(id: string): Promise<DatasetDetailView & { examples: NonNullable<DatasetDetailView["examples"]> }> {
    const d = await requireProfiled(id);
    requireExamples(d);
    if (!d.examples) throw conflict(`The examples of ${d.name} are still being read; try again when they are ready.`, { datasetId: id });
    return { ...d, examples: d.examples };
  }

  function checksView(c: CheckRow, setup: ChecksView["setup"] = null): ChecksView {
    return {
      datasetId: c.datasetId,
      target: c.target,
      positiveClass: JSON.parse(c.positiveClassKey) as ChecksView["positiveClass"],
      status: c.status as ChecksView["status"],
      jobId: c.jobId,
      error: parseJson<DatasetError>(c.error),
      setup,
      result: storedChecks(c.result),
    };
  }

  async function deletePreview(id: string): Promise<DeletePreviewView> {
    const d = await requireRow(id);
    const s = await repo.snapshots.find(d.snapshotSha256);
    const others = (await repo.datasets.bySnapshot(d.snapshotSha256)).filter((x) => x.id !== d.id);
    // Another project's dataset often has the same file name: the project is what tells them apart.
    const projects = await repo.datasets.projectNames([...new Set(others.map((x) => x.projectId))]);
    const sharedWith = others.map((x) => ({ id: x.id, projectId: x.projectId, projectName: projects.get(x.projectId) ?? null, name: x.name }));
    const [jobs, exports, usedBy, bases] = await Promise.all([
      repo.references.activeJobsUsing(d.snapshotSha256),
      repo.references.exportsOf(d.snapshotSha256),
      repo.references.experimentsUsing(d.id),
      // Only the snapshot's removal would take a base model's file away.
      sharedWith.length === 0 ? repo.references.baseModelOf(d.snapshotSha256) : [],
    ]);
    const blockers: DeletePreviewView["blockers"] = [
      ...jobs.map((j) => ({ kind: "job" as const, id: j.id, label: `job ${j.id} (${j.recipe}.${j.jobName}) is ${j.state} and reads this data` })),
      ...exports.map((e) => ({ kind: "export" as const, id: e.id, label: `the export of experiment "${e.name}" was made from this data` })),
      ...bases.map((e) => ({ kind: "base_model" as const, id: e.id, label: `fine-tuning experiment "${e.name}" uses the same bytes as its base model` })),
    ];
    // A holdout reserved from the same bytes keeps them: its comparisons and splits read them.
    const removesSnapshot = sharedWith.length === 0 && (await repo.references.holdoutsIn(d.snapshotSha256)) === 0;
    const serverCopies = removesSnapshot ? await serverCopiesOf(db, d.snapshotSha256) : [];
    return {
      datasetId: d.id,
      name: d.name,
      sharedWith,
      freedBytes: removesSnapshot ? (s?.bytes ?? 0) : 0,
      removesSnapshot,
      blockers,
      usedBy,
      serverCopies,
      canDelete: blockers.length === 0,
    };
  }

  return {
    registerUpload: (q: TUploadQuery, body: AsyncIterable<Uint8Array>, contentLength: number | null) => registerUpload(db, q, body, contentLength),
    registerPath: (input: TRegisterPathInput) => registerPath(db, input),
    get,
    requireReady,
    requireReadyExamples,

    async list(projectId: string): Promise<DatasetView[]> {
      await projectsService(db).get(projectId);
      return Promise.all((await repo.datasets.list(projectId)).map(view));
    },

    async preview(id: string): Promise<PreviewView> {
      const d = await requireRow(id);
      if (storedKind(d.kind) === "examples") return previewOfExamples(d.id, storedExamples(d.profile), d.status);
      const target = await localTarget(db);
      try {
        const res = await targetsService(db).execOn(target, { protocol: WORKER_PROTOCOL, op: "peek", sha256: d.snapshotSha256, maxRows: PREVIEW_ROWS + 1, maxBytes: 64 * 1024 });
        const fmt = storedProfile(d.profile)?.tableFormat ?? null;
        return previewFromLines(d.id, res.lines, res.truncated, fmt);
      } catch (err) {
        if (err instanceof WorkerRefused) throw notFound(`${target.name} has no copy of ${d.name} (${err.message}).`);
        if (err instanceof WorkerUnreachable) throw unavailable(`${target.name} did not answer while reading the first rows of ${d.name}: ${err.message}`);
        throw err;
      }
    },

    async profileStatus(id: string): Promise<ProfileStatusView> {
      let d = await requireRow(id);
      const setup = await settleDataset(db, d);
      d = await requireRow(id);
      const job = d.profileJobId ? await jobsService(db).getView(d.profileJobId) : null;
      return {
        datasetId: d.id,
        status: d.status as ProfileStatusView["status"],
        error: parseJson<DatasetError>(d.error),
        setup,
        job: job ? { id: job.id, state: job.state, startedAt: job.startedAt, endedAt: job.endedAt } : null,
      };
    },

    /** Profiles again, e.g. "Read it as Latin-1" after an invalid_utf8 refusal. */
    async reprofile(id: string, encoding: "utf-8" | "latin-1"): Promise<ProfileStatusView> {
      const d = await requireRow(id);
      if (d.status === "profiling") throw conflict(`${d.name} is being profiled already.`);
      await repo.datasets.reprofile(id, encoding, `read as ${encoding}`);
      publish({ type: "dataset.changed", datasetId: id, projectId: d.projectId });
      return this.profileStatus(id);
    },

    /** Starts data.checks for a target (cached per dataset, target and positive class). */
    async startChecks(raw: TChecksInput): Promise<ChecksView> {
      const input = ZChecksInput.parse(raw);
      requireTable(await requireRow(input.id), "data checks for a column to predict");
      const d = await requireReady(input.id);
      if (!d.columns.some((c) => c.name === input.target)) {
        throw badInput(`${d.name} has no column "${input.target}".`, { code: "unknown_column" });
      }
      const key = JSON.stringify(input.positiveClass);
      let c = await repo.checks.find(d.id, input.target, key);
      if (!c || c.status === "failed") c = await repo.checks.upsertRunning(d.id, input.target, key);
      const setup = await settleCheck(db, c);
      return checksView((await repo.checks.find(d.id, input.target, key))!, setup);
    },

    async getChecks(raw: TChecksInput): Promise<ChecksView | null> {
      const input = ZChecksInput.parse(raw);
      const key = JSON.stringify(input.positiveClass);
      const c = await repo.checks.find(input.id, input.target, key);
      if (!c) return null;
      const setup = await settleCheck(db, c);
      return checksView((await repo.checks.find(input.id, input.target, key))!, setup);
    },

    startSplit: async (input: TEnsureSplitInput) => startSplit(db, await requireReady(input.datasetId), input),
    /** Records the split an experiment's own split step made; returns its SplitContract id. */
    recordSplit: (input: TRecordSplitInput) => recordSplit(db, input),

    deletePreview,

    /** Deletes the dataset; its snapshot too when no other dataset uses it (each computer's worker removes its copy). */
    async delete(id: string): Promise<DeleteResultView> {
      const preview = await deletePreview(id);
      if (!preview.canDelete) {
        throw conflict(`${preview.name} cannot be deleted now: ${preview.blockers.map((b) => b.label).join("; ")}.`, { blockers: preview.blockers });
      }
      const d = await requireRow(id);
      await repo.datasets.remove(id);
      let copiesLeft: DeleteResultView["copiesLeft"] = [];
      if (preview.removesSnapshot) {
        copiesLeft = await removeCopies(db, d.snapshotSha256);
        if (await repo.snapshots.find(d.snapshotSha256)) await repo.snapshots.remove(d.snapshotSha256);
      }
      publish({ type: "dataset.changed", datasetId: id, projectId: d.projectId });
      return { ...preview, copiesLeft };
    },
  };
}
