/**
 * Two versions of a model side by side: every metric, the data they were trained and
 * scored on, the settings, the recipe identity (and a fine-tune's base model), and whether
 * they are comparable (and if not, which contract fields differ).
 */
import type { Db } from "@/server/db/client";
import { comparability, type Comparability } from "./gate";
import { findModel, findVersion, type VersionView } from "./registry-views";
import { improvementOf, scoreOf } from "./version-evidence";

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

/** The data a version was trained and scored on, by its kind. */
function dataOf(v: VersionView): Record<string, unknown> {
  const e = v.evidence;
  const common = { snapshotSha256: v.snapshotSha256, splitContractId: v.splitContractId };
  if (e.kind === "tabular") return { ...common, split: e.receipt.evaluationContract.splitSha256, testRows: e.receipt.rows };
  const r = e.receipt;
  return { ...common, evalSetSha256: r.evalSetSha256, evalExamples: r.examples, answerTokens: r.adapter.tokens, maxLength: r.maxLength, droppedNoAnswerLeft: r.droppedNoAnswerLeft };
}

/** What made a version: recipe, environment, computer, export, and a fine-tune's exact base model. */
function identityOf(v: VersionView): Record<string, unknown> {
  const own = { ...v.identity, targetId: v.targetId, exportSha256: v.exportSha256 };
  if (v.evidence.kind === "tabular") return own;
  const base = v.evidence.base;
  return { ...own, adapterSha256: v.modelSha256, baseName: base.name, baseSnapshotSha256: base.snapshotSha256, baseSource: base.source, baseDequantizedFrom: base.dequantizedFrom, baseArchitecture: base.architecture };
}

export async function compareVersions(db: Db, modelId: string, na: number, nb: number): Promise<VersionComparison> {
  await findModel(db, modelId);
  const [a, b] = await Promise.all([findVersion(db, modelId, na), findVersion(db, modelId, nb)]);
  const comp = comparability(a.evidence, b.evidence);
  return {
    a,
    b,
    comparability: comp,
    improvement: comp.comparable ? improvementOf(scoreOf(a.evidence), b.primaryValue, a.primaryValue) : null,
    metrics: rows(a.metrics, b.metrics),
    data: rows(dataOf(a), dataOf(b)),
    settings: rows(a.settings, b.settings),
    identity: rows(identityOf(a), identityOf(b)),
  };
}
