/**
 * Folds finished data jobs back into dataset rows: a succeeded profile stores
 * profile.json (and the snapshot's row count, format and column schema), checks store
 * checks.json, a split stores split.json and the job's output hash. Rows waiting for
 * the data tools to be set up start their job once the environment is ready.
 *
 * It runs on every read of those rows and after every job change (one bus listener per
 * process, installed on first use); passes are serialized so two triggers never admit
 * twice. Nothing here is lost on restart: the rows say what is still to be settled.
 */
import type { Db } from "@/server/db/client";
import { DomainError } from "@/server/errors";
import { eventBus, publish } from "@/server/events/bus";
import { isTerminal } from "@/server/jobs/job-state";
import { jobsService } from "@/server/jobs/jobs.service";
import { settingsService } from "@/server/settings/settings.service";
import { datasetsRepository, type CheckRow, type DatasetRow, type SplitRow } from "./datasets.repository";
import type { SetupProgress } from "./datasets.schema";
import { snapshotRef, parseJson } from "./datasets.views";
import { jobError, readJobOutputJson, startDataJob } from "./data-jobs";
import { localTarget } from "./local-store";

const changed = (d: { id: string; projectId: string }) => publish({ type: "dataset.changed", datasetId: d.id, projectId: d.projectId });
const errJson = (code: string, message: string) => JSON.stringify({ code, message });

/** A worker that did not answer is worth another try on the next pass, not a failed dataset. */
function transient(err: unknown): boolean {
  return err instanceof DomainError && err.code === "UNAVAILABLE" && !err.details?.setupJobId;
}

function startFailure(err: unknown): { code: string; message: string } {
  if (err instanceof DomainError) return { code: (err.details?.code as string) ?? err.code.toLowerCase(), message: err.message };
  return { code: "error", message: (err as Error).message };
}

export async function profileInput(db: Db, d: DatasetRow): Promise<Record<string, unknown>> {
  const s = await settingsService(db).values();
  return {
    dataset: snapshotRef(d.snapshotSha256),
    fileName: d.name,
    encoding: d.encoding,
    limits: { maxLineBytes: s.maxLineBytes, maxColumns: s.maxColumns, maxDecompressedBytes: s.maxDecompressedBytes },
  };
}

/** Advances one dataset's profile; returns setup progress while the data tools are being built. */
export async function settleDataset(db: Db, d: DatasetRow): Promise<SetupProgress | null> {
  if (d.status !== "profiling") return null;
  const repo = datasetsRepository(db);
  if (!d.profileJobId) {
    try {
      const target = await localTarget(db);
      const start = await startDataJob(db, target.id, "profile", await profileInput(db, d), `${d.id}:${d.updatedAt.getTime()}`);
      if (start.kind === "setup") return start.setup;
      await repo.datasets.update(d.id, { profileJobId: start.job.id });
    } catch (err) {
      if (transient(err)) return null;
      const f = startFailure(err);
      await repo.datasets.update(d.id, { status: "failed", error: errJson(f.code, f.message) });
    }
    changed(d);
    return null;
  }
  const job = await jobsService(db).get(d.profileJobId);
  if (!isTerminal(job.state)) return null;
  if (job.state === "succeeded") {
    try {
      const profile = (await readJobOutputJson(db, job, "profile.json")) as {
        rows: number;
        tableFormat: Record<string, unknown>;
        columns: { name: string; type: string }[];
      };
      await repo.snapshots.describe(d.snapshotSha256, {
        format: JSON.stringify(profile.tableFormat),
        rowCount: profile.rows,
        columns: JSON.stringify(profile.columns.map((c) => ({ name: c.name, type: c.type }))),
      });
      await repo.datasets.update(d.id, { status: "ready", error: null, profile: JSON.stringify(profile) });
    } catch (err) {
      await repo.datasets.update(d.id, { status: "failed", error: errJson("profile_unreadable", `The profile could not be read: ${(err as Error).message}`) });
    }
  } else {
    const e = jobError(job);
    await repo.datasets.update(d.id, { status: "failed", error: errJson(e.code, e.message) });
  }
  changed(d);
  return null;
}

export async function checksInput(db: Db, c: CheckRow): Promise<Record<string, unknown> | null> {
  const d = await datasetsRepository(db).datasets.find(c.datasetId);
  const profile = parseJson<{ tableFormat: Record<string, unknown> }>(d?.profile ?? null);
  if (!d || !profile) return null;
  const positiveClass = JSON.parse(c.positiveClassKey) as unknown;
  return {
    dataset: snapshotRef(d.snapshotSha256),
    datasetFormat: profile.tableFormat,
    target: c.target,
    ...(positiveClass === null ? {} : { positiveClass }),
  };
}

export async function settleCheck(db: Db, c: CheckRow): Promise<SetupProgress | null> {
  if (c.status !== "running") return null;
  const repo = datasetsRepository(db);
  const d = await repo.datasets.find(c.datasetId);
  if (!c.jobId) {
    try {
      const input = await checksInput(db, c);
      if (!input) throw new Error("the dataset has no profile");
      const start = await startDataJob(db, (await localTarget(db)).id, "checks", input, c.id);
      if (start.kind === "setup") return start.setup;
      await repo.checks.update(c.id, { jobId: start.job.id });
    } catch (err) {
      if (transient(err)) return null;
      const f = startFailure(err);
      await repo.checks.update(c.id, { status: "failed", error: errJson(f.code, f.message) });
    }
    if (d) changed(d);
    return null;
  }
  const job = await jobsService(db).get(c.jobId);
  if (!isTerminal(job.state)) return null;
  if (job.state === "succeeded") {
    const result = await readJobOutputJson(db, job, "checks.json");
    await repo.checks.update(c.id, { status: "ready", result: JSON.stringify(result), error: null });
  } else {
    const e = jobError(job);
    await repo.checks.update(c.id, { status: "failed", error: errJson(e.code, e.message) });
  }
  if (d) changed(d);
  return null;
}

export async function settleSplit(db: Db, s: SplitRow): Promise<SetupProgress | null> {
  if (s.status !== "running") return null;
  const repo = datasetsRepository(db);
  if (!s.jobId) {
    try {
      const start = await startDataJob(db, (await localTarget(db)).id, "split", JSON.parse(s.settings) as Record<string, unknown>, s.id);
      if (start.kind === "setup") return start.setup;
      await repo.splits.update(s.id, { jobId: start.job.id });
    } catch (err) {
      if (transient(err)) return null;
      await repo.splits.update(s.id, { status: "failed", error: startFailure(err).message });
    }
    return null;
  }
  const job = await jobsService(db).get(s.jobId);
  if (!isTerminal(job.state)) return null;
  if (job.state === "succeeded" && job.outputSha256) {
    const contract = await readJobOutputJson(db, job, "split.json");
    await repo.splits.update(s.id, { status: "ready", contract: JSON.stringify(contract), outputSha256: job.outputSha256, error: null });
  } else {
    const e = jobError(job);
    await repo.splits.update(s.id, { status: "failed", error: `${e.message} (${e.code})` });
  }
  return null;
}

/** One pass over everything still waiting; errors of one row never stop the others. */
export async function settleAll(db: Db): Promise<void> {
  const repo = datasetsRepository(db);
  const rows: Array<() => Promise<unknown>> = [
    ...(await repo.datasets.profiling()).map((d) => () => settleDataset(db, d)),
    ...(await repo.checks.running()).map((c) => () => settleCheck(db, c)),
    ...(await repo.splits.running()).map((s) => () => settleSplit(db, s)),
  ];
  for (const run of rows) await run().catch(() => {});
}

interface Settler {
  running: Promise<void> | null;
  again: boolean;
}
const KEY = Symbol.for("trainyard.datasetSettler");

/** Serialized settle pass (a pass requested while one runs makes one more run after it). */
export function requestSettle(db: Db): Promise<void> {
  const g = globalThis as { [KEY]?: Settler };
  const st = (g[KEY] ??= { running: null, again: false });
  if (st.running) {
    st.again = true;
    return st.running;
  }
  st.running = (async () => {
    try {
      do {
        st.again = false;
        await settleAll(db);
      } while (st.again);
    } finally {
      st.running = null;
    }
  })();
  return st.running;
}

const LISTENER = Symbol.for("trainyard.datasetSettlerListener");
/** Installs (once per process) the listener that settles after every job change. */
export function installSettleListener(db: Db): void {
  const g = globalThis as { [LISTENER]?: boolean };
  if (g[LISTENER]) return;
  g[LISTENER] = true;
  eventBus().subscribe(["jobs"], (e) => {
    if (e.event.type === "job.changed") void requestSettle(db).catch(() => {});
  });
}
