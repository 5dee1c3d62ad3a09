/** Builds the plain views of datasets from rows (JSON columns parsed here, once). */
import type { ColumnSummary, DatasetError, DatasetStatus, DatasetView } from "./datasets.schema";
import type { DatasetRow, SnapshotRow } from "./datasets.repository";

export const snapshotRef = (sha256: string) => `sha256:${sha256}`;

export function parseJson<T>(s: string | null): T | null {
  if (!s) return null;
  try {
    return JSON.parse(s) as T;
  } catch {
    return null;
  }
}

export function toDatasetView(
  d: DatasetRow,
  s: SnapshotRow,
  copies: { workerId: string; targetId: string }[],
  usedBy: { id: string; name: string; status: string }[],
): DatasetView {
  const profile = parseJson<{ tableFormat?: Record<string, unknown>; rows?: number; columnCount?: number }>(d.profile);
  const columns = parseJson<ColumnSummary[]>(s.columns) ?? [];
  return {
    id: d.id,
    projectId: d.projectId,
    name: d.name,
    status: d.status as DatasetStatus,
    error: parseJson<DatasetError>(d.error),
    snapshotSha256: s.sha256,
    snapshotRef: snapshotRef(s.sha256),
    bytes: s.bytes,
    rowCount: profile?.rows ?? s.rowCount,
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
