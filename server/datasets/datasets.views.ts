/** Builds the plain views of datasets from rows (JSON columns parsed here, once). */
import type { z } from "zod";
import { ZChecksResult, ZProfile, ZSplitContract, ZSplitInput } from "@/contracts/recipes";
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

/** A stored recipe output (or job input), parsed with its contract; null when absent or not of that shape. */
function parseStored<S extends z.ZodType>(schema: S, s: string | null): z.output<S> | null {
  if (!s) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(s));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The dataset's profile.json as stored when its profile job succeeded. */
export const storedProfile = (s: string | null) => parseStored(ZProfile, s);
/** A check's checks.json as stored. */
export const storedChecks = (s: string | null) => parseStored(ZChecksResult, s);
/** A split's split.json as stored. */
export const storedSplitContract = (s: string | null) => parseStored(ZSplitContract, s);
/** The data.split input a split row was started with. */
export const storedSplitSettings = (s: string | null) => parseStored(ZSplitInput, s);

export function toDatasetView(
  d: DatasetRow,
  s: SnapshotRow,
  copies: { workerId: string; targetId: string }[],
  usedBy: { id: string; name: string; status: string }[],
): DatasetView {
  const profile = storedProfile(d.profile);
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
