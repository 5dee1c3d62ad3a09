/**
 * Two versions of a model side by side: every metric, the data they were trained and
 * scored on, the settings, the recipe identity, and whether they are comparable (and if
 * not, which contract fields differ).
 */
import type { Db } from "@/server/db/client";
import { comparability, type Comparability } from "./gate";
import { findModel, findVersion, type VersionView } from "./registry-views";

export interface Row {
  key: string;
  a: unknown;
  b: unknown;
  same: boolean;
}

export interface VersionComparison {
  a: VersionView;
  b: VersionView;
  comparability: Comparability;
  /** Positive: b is better than a on the primary metric (only when comparable). */
  improvement: number | null;
  metrics: Row[];
  data: Row[];
  settings: Row[];
  identity: Row[];
}

const same = (x: unknown, y: unknown) => JSON.stringify(x) === JSON.stringify(y);

function rows(a: Record<string, unknown>, b: Record<string, unknown>): Row[] {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return keys.map((key) => ({ key, a: a[key] ?? null, b: b[key] ?? null, same: same(a[key], b[key]) }));
}

export async function compareVersions(db: Db, modelId: string, na: number, nb: number): Promise<VersionComparison> {
  await findModel(db, modelId);
  const [a, b] = await Promise.all([findVersion(db, modelId, na), findVersion(db, modelId, nb)]);
  const comp = comparability(a.receipt, b.receipt);
  const delta = b.primaryValue - a.primaryValue;
  return {
    a,
    b,
    comparability: comp,
    improvement: comp.comparable ? (a.direction === "higher_is_better" ? delta : -delta) : null,
    metrics: rows(a.metrics, b.metrics),
    data: rows(
      { snapshotSha256: a.snapshotSha256, splitContractId: a.splitContractId, split: a.receipt.evaluationContract.splitSha256, testRows: a.receipt.rows },
      { snapshotSha256: b.snapshotSha256, splitContractId: b.splitContractId, split: b.receipt.evaluationContract.splitSha256, testRows: b.receipt.rows },
    ),
    settings: rows(a.settings, b.settings),
    identity: rows({ ...a.identity, targetId: a.targetId, exportSha256: a.exportSha256 }, { ...b.identity, targetId: b.targetId, exportSha256: b.exportSha256 }),
  };
}
