/**
 * Prisma access for the model registry: models, versions, aliases, alias events, and the
 * deployment rows the registry asks about (which version a deployment serves). Takes the
 * shared client or a transaction's, so a caller that must read and write atomically builds
 * it on its `tx`. A version's status changes only through versionStore (version-store.ts),
 * the lifecycle's one writer; createVersion sets the state it starts in.
 */
import type { Prisma } from "@/generated/prisma/client";
import { getDb, type Db } from "@/server/db/client";
import type { Tx } from "@/server/lifecycle/transition";

/** The shared client, or the one inside an interactive transaction. */
export type RegistryClient = Db | Tx;

export type ModelRow = NonNullable<Awaited<ReturnType<Db["registeredModel"]["findUnique"]>>>;
/** A version with what its exclusion evidence is (not its hashes: compare.ts reads those apart). */
export const WITH_EXCLUSION = { exclusion: { select: { kind: true, entries: true } } } satisfies Prisma.ModelVersionInclude;
export type VersionRow = Prisma.ModelVersionGetPayload<{ include: typeof WITH_EXCLUSION }>;
export type AliasRow = NonNullable<Awaited<ReturnType<Db["modelAlias"]["findUnique"]>>>;
export type AliasEventRow = NonNullable<Awaited<ReturnType<Db["aliasEvent"]["findUnique"]>>>;
export type NewVersion = Parameters<Db["modelVersion"]["create"]>[0]["data"];
export type NewAliasEvent = Parameters<Db["aliasEvent"]["create"]>[0]["data"];

export function registryRepository(db: RegistryClient = getDb()) {
  return {
    ...modelQueries(db),
    ...versionQueries(db),
    ...aliasQueries(db),
    ...servingQueries(db),
  };
}

function modelQueries(db: RegistryClient) {
  return {
    modelById: (id: string): Promise<ModelRow | null> => db.registeredModel.findUnique({ where: { id } }),
    modelByIdOrThrow: (id: string): Promise<ModelRow> => db.registeredModel.findUniqueOrThrow({ where: { id } }),
    /** Names are unique per project by their case-folded key (registry.schema nameKey). */
    modelByNameKey: (projectId: string, nameKey: string): Promise<ModelRow | null> =>
      db.registeredModel.findUnique({ where: { projectId_nameKey: { projectId, nameKey } } }),
    modelNameOf: (id: string) => db.registeredModel.findUnique({ where: { id }, select: { name: true } }),
    modelsOf: (projectId: string): Promise<ModelRow[]> => db.registeredModel.findMany({ where: { projectId } }),
    modelsByName: (projectId: string): Promise<ModelRow[]> => db.registeredModel.findMany({ where: { projectId }, orderBy: { name: "asc" } }),
    modelIdsOf: (projectId: string) => db.registeredModel.findMany({ where: { projectId }, select: { id: true } }),
    countModels: (projectId: string): Promise<number> => db.registeredModel.count({ where: { projectId } }),
    createModel: (data: { projectId: string; name: string; nameKey: string }): Promise<ModelRow> => db.registeredModel.create({ data }),
    /** Bumps the revision only from `expected`; 0 when another move came first. */
    bumpRevision: async (modelId: string, expected: number): Promise<number> =>
      (await db.registeredModel.updateMany({ where: { id: modelId, revision: expected }, data: { revision: { increment: 1 } } })).count,
  };
}

function versionQueries(db: RegistryClient) {
  return {
    versionById: (id: string): Promise<VersionRow | null> => db.modelVersion.findUnique({ where: { id }, include: WITH_EXCLUSION }),
    versionByIdOrThrow: (id: string): Promise<VersionRow> => db.modelVersion.findUniqueOrThrow({ where: { id }, include: WITH_EXCLUSION }),
    versionByNumber: (modelId: string, number: number): Promise<VersionRow | null> =>
      db.modelVersion.findUnique({ where: { modelId_number: { modelId, number } }, include: WITH_EXCLUSION }),
    versionOfExperiment: (modelId: string, experimentId: string): Promise<VersionRow | null> =>
      db.modelVersion.findUnique({ where: { modelId_experimentId: { modelId, experimentId } }, include: WITH_EXCLUSION }),
    versionsByIds: (ids: string[]): Promise<VersionRow[]> => db.modelVersion.findMany({ where: { id: { in: ids } }, include: WITH_EXCLUSION }),
    versionNumbers: (ids: string[]) => db.modelVersion.findMany({ where: { id: { in: ids } }, select: { id: true, number: true } }),
    /** Only the ids that belong to one of `modelIds` (a project's models) come back. */
    versionsByIdsIn: (ids: string[], modelIds: string[]): Promise<VersionRow[]> =>
      db.modelVersion.findMany({ where: { id: { in: ids }, modelId: { in: modelIds } }, include: WITH_EXCLUSION }),
    versionsNewestFirst: (modelId: string): Promise<VersionRow[]> => db.modelVersion.findMany({ where: { modelId }, orderBy: { number: "desc" }, include: WITH_EXCLUSION }),
    countVersions: (modelId: string): Promise<number> => db.modelVersion.count({ where: { modelId } }),
    lastVersionNumber: async (modelId: string): Promise<number | null> =>
      (await db.modelVersion.findFirst({ where: { modelId }, orderBy: { number: "desc" }, select: { number: true } }))?.number ?? null,
    createVersion: (data: NewVersion): Promise<VersionRow> => db.modelVersion.create({ data, include: WITH_EXCLUSION }),
    /** Exports the models' versions not removed keep, one row per version (an archive may repeat). */
    liveExportSizes: (modelIds: string[]) =>
      db.modelVersion.findMany({ where: { modelId: { in: modelIds }, status: { not: "removed" } }, select: { exportSha256: true, exportBytes: true } }),
    liveVersionsForRetention: (modelIds: string[]) =>
      db.modelVersion.findMany({
        where: { modelId: { in: modelIds }, status: { not: "removed" } },
        orderBy: [{ modelId: "asc" }, { number: "asc" }],
        select: { id: true, modelId: true, number: true, exportSha256: true, exportBytes: true, createdAt: true },
      }),
  };
}

function aliasQueries(db: RegistryClient) {
  return {
    aliasByName: (modelId: string, name: string): Promise<AliasRow | null> => db.modelAlias.findUnique({ where: { modelId_name: { modelId, name } } }),
    aliasesOf: (modelId: string): Promise<AliasRow[]> => db.modelAlias.findMany({ where: { modelId } }),
    aliasesByName: (modelId: string): Promise<AliasRow[]> => db.modelAlias.findMany({ where: { modelId }, orderBy: { name: "asc" } }),
    aliasesOfModels: (modelIds: string[]): Promise<AliasRow[]> => db.modelAlias.findMany({ where: { modelId: { in: modelIds } } }),
    aliasesOnVersion: (modelId: string, versionId: string): Promise<AliasRow[]> => db.modelAlias.findMany({ where: { modelId, versionId } }),
    pointAlias: (modelId: string, name: string, versionId: string): Promise<AliasRow> =>
      db.modelAlias.upsert({ where: { modelId_name: { modelId, name } }, create: { modelId, name, versionId }, update: { versionId } }),
    aliasEventById: (id: number): Promise<AliasEventRow | null> => db.aliasEvent.findUnique({ where: { id } }),
    eventsNewestFirst: (modelId: string, take: number): Promise<AliasEventRow[]> =>
      db.aliasEvent.findMany({ where: { modelId }, orderBy: { id: "desc" }, take }),
    lastAliasEvent: (modelId: string, alias: string): Promise<AliasEventRow | null> => db.aliasEvent.findFirst({ where: { modelId, alias }, orderBy: { id: "desc" } }),
    aliasEventsNewestFirst: (modelId: string, alias: string): Promise<AliasEventRow[]> =>
      db.aliasEvent.findMany({ where: { modelId, alias }, orderBy: { id: "desc" } }),
    appendAliasEvent: async (data: NewAliasEvent): Promise<number> => (await db.aliasEvent.create({ data })).id,
  };
}

function servingQueries(db: RegistryClient) {
  return {
    /** The serving record column alone (null: registered before versions kept their own). */
    servingColumnOf: (versionId: string) => db.modelVersion.findUnique({ where: { id: versionId }, select: { serving: true } }),
    servingAndExperimentOf: (versionId: string) =>
      db.modelVersion.findUnique({ where: { id: versionId }, select: { serving: true, experimentId: true } }),
    versionsWithoutServing: () =>
      db.modelVersion.findMany({ where: { serving: null }, select: { id: true, number: true, modelId: true, experimentId: true } }),
    /** Writes the record only where none is stored yet, so a copy racing another changes nothing. */
    fillServingIfEmpty: (versionId: string, serving: string) =>
      db.modelVersion.updateMany({ where: { id: versionId, serving: null }, data: { serving } }),
    /**
     * The model's deployments whose current release serves `versionId`, whatever their
     * state (a stopped deployment can be started again).
     */
    deploymentsServingVersion: async (modelId: string, versionId: string): Promise<{ name: string; state: string }[]> => {
      const serving = await db.deployment.findMany({ where: { modelId, currentReleaseId: { not: null } }, select: { name: true, state: true, currentReleaseId: true } });
      const releases = await db.deploymentRelease.findMany({ where: { id: { in: serving.map((d) => d.currentReleaseId!) }, versionId }, select: { id: true } });
      return serving.filter((d) => releases.some((r) => r.id === d.currentReleaseId)).map((d) => ({ name: d.name, state: d.state }));
    },
  };
}
