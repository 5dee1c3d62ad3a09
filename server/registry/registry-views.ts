/**
 * What the API, the CLI and the Models view see of models, versions and alias events:
 * rows parsed once here (stored JSON through its contract), BigInt sizes as numbers.
 */
import { z } from "zod";
import { ZPredictLatency, type PredictLatency } from "@/contracts/recipes";
import { parseStoredJson } from "@/server/db/stored-json";
import type { ModelVersionStatus } from "@/contracts/lifecycles";
import { notFound } from "@/server/errors";
import { ZActor, SELECTED, LIMITS } from "./registry.schema";
import { ZExclusionKind, type ExclusionKind } from "./exclusion-kind";
import { registryRepository, type AliasEventRow, type ModelRow, type RegistryClient, type VersionRow } from "./registry.repository";
import { baseModelWords, evidenceFromColumns, scoreOf, type VersionEvidence } from "./version-evidence";

/**
 * The experiment's settings as it stored them; read as plain fields so a version of any
 * experiment kind (tabular, fine-tuning) lists and compares alike.
 */
const ZVersionSettings = z.record(z.string(), z.unknown());

/** Recipe and environment identity of the training that made a version. */
export const ZVersionIdentity = z.strictObject({
  recipe: z.string(),
  recipeVersion: z.string(),
  environmentId: z.string(),
  trainJobId: z.string(),
});

export interface VersionView {
  id: string;
  modelId: string;
  number: number;
  experimentId: string;
  status: ModelVersionStatus;
  exportSha256: string;
  exportBytes: number;
  exportFileName: string;
  modelSha256: string;
  primaryMetric: string;
  /** The metric as a page names it ("answer-token loss" for a fine-tune). */
  metricLabel: string;
  direction: string;
  primaryValue: number;
  baselineValue: number;
  metrics: Record<string, number | null | undefined>;
  /** The score with its baseline (or base model) in plain words. */
  evidenceWords: string;
  /** A fine-tune's exact base model in words (name, snapshot, dequantized from); null for tabular. */
  baseModel: string | null;
  /** tabular: both receipts; lora: the receipt, the base model and the evaluation contract. */
  evidence: VersionEvidence;
  evaluationContractHash: string;
  snapshotSha256: string;
  splitContractId: string | null;
  settings: z.infer<typeof ZVersionSettings>;
  identity: z.infer<typeof ZVersionIdentity>;
  targetId: string;
  createdAt: Date;
  /** Single-row prediction time measured when it was tested; null for a fine-tune or a version trained before. */
  latency: PredictLatency | null;
  /**
   * Its exclusion evidence: how many rows (tabular) or prompts (fine-tune) it was trained,
   * tuned and tested on, kept as hashes; null when it has none (trained before they were kept).
   */
  exclusion: { kind: ExclusionKind; entries: number } | null;
  /** The aliases that point at it now ("selected", "staging"). */
  aliases: string[];
}

export interface AliasView {
  name: string;
  versionId: string;
  version: number;
  since: Date;
}

export interface EventView {
  id: number;
  alias: string;
  kind: "promote" | "rollback";
  from: { id: string; number: number } | null;
  to: { id: string; number: number };
  revision: number;
  actor: z.infer<typeof ZActor>;
  reason: string;
  evidence: unknown;
  acknowledgedRegression: boolean;
  at: Date;
}

export interface ModelView {
  id: string;
  projectId: string;
  name: string;
  /** Moves with every alias change; promote and rollback name the one they decided on. */
  revision: number;
  /** The version in use (the "selected" alias); null until the first promotion. */
  selected: (VersionView & { selectedAt: Date }) | null;
  aliases: AliasView[];
  versionCount: number;
  /** What "Roll back" returns to: the version selected before the current one (rollback.ts), or null. */
  rollbackTo: number | null;
  createdAt: Date;
}

export function versionView(row: VersionRow, aliases: string[] = []): VersionView {
  const evidence = evidenceFromColumns(row);
  const score = scoreOf(evidence);
  return {
    id: row.id,
    modelId: row.modelId,
    number: row.number,
    experimentId: row.experimentId,
    status: row.status as ModelVersionStatus,
    exportSha256: row.exportSha256,
    exportBytes: Number(row.exportBytes),
    exportFileName: row.exportFileName,
    modelSha256: row.modelSha256,
    primaryMetric: score.metric,
    metricLabel: score.label,
    direction: score.direction,
    primaryValue: score.value,
    baselineValue: score.baselineValue,
    metrics: score.metrics,
    evidenceWords: score.words,
    baseModel: baseModelWords(evidence),
    evidence,
    evaluationContractHash: row.evaluationContractHash,
    snapshotSha256: row.snapshotSha256,
    splitContractId: row.splitContractId,
    settings: ZVersionSettings.parse(JSON.parse(row.settings)),
    identity: ZVersionIdentity.parse(JSON.parse(row.identity)),
    targetId: row.targetId,
    createdAt: row.createdAt,
    latency: parseStoredJson(ZPredictLatency, row.latency),
    exclusion: row.exclusion ? { kind: ZExclusionKind.parse(row.exclusion.kind), entries: row.exclusion.entries } : null,
    aliases,
  };
}

export async function findModel(db: RegistryClient, modelId: string): Promise<ModelRow> {
  const m = await registryRepository(db).modelById(modelId);
  if (!m) throw notFound(`There is no model ${modelId}.`);
  return m;
}

/** Version `number` of the model, or NOT_FOUND naming what exists. */
export async function findVersion(db: RegistryClient, modelId: string, number: number): Promise<VersionView> {
  const repo = registryRepository(db);
  const row = await repo.versionByNumber(modelId, number);
  if (!row) {
    const count = await repo.countVersions(modelId);
    throw notFound(`This model has no version ${number} (it has ${count ? `versions 1–${count}` : "no versions"}).`);
  }
  const aliases = await repo.aliasesOnVersion(modelId, row.id);
  return versionView(row, aliases.map((a) => a.name));
}

export async function modelView(db: RegistryClient, model: ModelRow): Promise<ModelView> {
  const repo = registryRepository(db);
  const aliases = await repo.aliasesByName(model.id);
  const rows = aliases.length ? await repo.versionsByIds(aliases.map((a) => a.versionId)) : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const sel = aliases.find((a) => a.name === SELECTED);
  const selRow = sel ? byId.get(sel.versionId) : undefined;
  const names = (versionId: string) => aliases.filter((a) => a.versionId === versionId).map((a) => a.name);
  const before = selRow ? (await repo.lastAliasEvent(model.id, SELECTED))?.fromVersionId : null;
  return {
    id: model.id,
    projectId: model.projectId,
    name: model.name,
    revision: model.revision,
    selected: sel && selRow ? { ...versionView(selRow, names(selRow.id)), selectedAt: sel.updatedAt } : null,
    aliases: aliases.map((a) => ({ name: a.name, versionId: a.versionId, version: byId.get(a.versionId)?.number ?? 0, since: a.updatedAt })),
    versionCount: await repo.countVersions(model.id),
    rollbackTo: before ? ((await repo.versionNumbers([before]))[0]?.number ?? null) : null,
    createdAt: model.createdAt,
  };
}

export async function versionsOf(db: RegistryClient, modelId: string): Promise<VersionView[]> {
  const repo = registryRepository(db);
  const [rows, aliases] = await Promise.all([repo.versionsNewestFirst(modelId), repo.aliasesOf(modelId)]);
  return rows.map((r) => versionView(r, aliases.filter((a) => a.versionId === r.id).map((a) => a.name)));
}

export async function eventViews(db: RegistryClient, rows: AliasEventRow[]): Promise<EventView[]> {
  const ids = [...new Set(rows.flatMap((r) => [r.toVersionId, ...(r.fromVersionId ? [r.fromVersionId] : [])]))];
  const versions = await registryRepository(db).versionNumbers(ids);
  const num = new Map(versions.map((v) => [v.id, v.number]));
  return rows.map((r) => ({
    id: r.id,
    alias: r.alias,
    kind: r.kind as EventView["kind"],
    from: r.fromVersionId ? { id: r.fromVersionId, number: num.get(r.fromVersionId) ?? 0 } : null,
    to: { id: r.toVersionId, number: num.get(r.toVersionId) ?? 0 },
    revision: r.revision,
    actor: ZActor.parse(JSON.parse(r.actor)),
    reason: r.reason,
    evidence: JSON.parse(r.evidence) as unknown,
    acknowledgedRegression: r.acknowledgedRegression,
    at: r.at,
  }));
}

/** The model's alias events, newest first (the last LIMITS.eventsShown; all are kept). */
export async function history(db: RegistryClient, modelId: string, limit: number = LIMITS.eventsShown): Promise<EventView[]> {
  await findModel(db, modelId);
  const rows = await registryRepository(db).eventsNewestFirst(modelId, Math.min(limit, LIMITS.eventsShown));
  return eventViews(db, rows);
}
