/** Builds the plain views of datasets from rows (JSON columns parsed here, once). */
import { ZChecksResult, ZProfile, ZSplitContract, ZSplitInput } from "@/contracts/recipes";
import { parseStoredJson } from "@/server/db/stored-json";
import type { ColumnSummary, DatasetError, DatasetStatus, DatasetView } from "./datasets.schema";
import type { DatasetRow, SnapshotRow } from "./datasets.repository";
import { storedExamples, storedKind } from "./dataset-kind";

export const snapshotRef = (sha256: string) => `sha256:${sha256}`;

export function parseJson<T>(s: string | null): T | null {
  if (!s) return null;
  try {
    return JSON.parse(s) as T;
  } catch {
    return null;
  }
}

/** The dataset's profile.json as stored when its profile job succeeded. */
export const storedProfile = (s: string | null) => parseStoredJson(ZProfile, s);
/** A check's checks.json as stored. */
export const storedChecks = (s: string | null) => parseStoredJson(ZChecksResult, s);
/** A split's split.json as stored. */
export const storedSplitContract = (s: string | null) => parseStoredJson(ZSplitContract, s);
/** The data.split input a split row was started with. */
export const storedSplitSettings = (s: string | null) => parseStoredJson(ZSplitInput, s);

export function toDatasetView(
  d: DatasetRow,
  s: SnapshotRow,
  copies: { workerId: string; targetId: string }[],
  usedBy: { id: string; name: string; status: string }[],
): DatasetView {
  const kind = storedKind(d.kind);
  const profile = kind === "table" ? storedProfile(d.profile) : null;
  const examples = kind === "examples" ? storedExamples(d.profile) : null;
  const columns = parseJson<ColumnSummary[]>(s.columns) ?? [];
  return {
    id: d.id,
    projectId: d.projectId,
    name: d.name,
    kind,
    status: d.status as DatasetStatus,
    error: parseJson<DatasetError>(d.error),
    snapshotSha256: s.sha256,
    snapshotRef: snapshotRef(s.sha256),
    bytes: s.bytes,
    rowCount: examples ? examples.lines.usable : (profile?.rows ?? s.rowCount),
    columnCount: profile?.columnCount ?? (columns.length || null),
    columns,
    datasetFormat: profile?.tableFormat ?? null,
    sourceKind: d.sourceKind === "path" ? "path" : "upload",
    sourceName: d.sourceName,
    encoding: d.encoding === "latin-1" ? "latin-1" : "utf-8",
    profileJobId: d.profileJobId,
    createdAt: d.createdAt.toISOString(),
    copies,
    usedBy,
  };
}
