/** What the API, the CLI and the pages see of deployments and their releases. */
import type { ServingKind } from "@/contracts/deployments/serving";
import type { Db } from "@/server/db/client";
import { notFound } from "@/server/errors";
import type { Tx } from "@/server/lifecycle/transition";
import { ZActor } from "@/server/registry/registry.schema";
import { deploymentKind } from "./release-kind";
import { storedCapacityGb, switchRoom } from "./switch-room";
import { linkNote } from "./serving-link";
import { DEFAULT_MEMORY_GB, isDeploymentState, RELEASE_KINDS, ZDeploymentMode, type DeploymentView, type ReleaseKind, type ReleaseView } from "./deployments.schema";
import { deploymentsRepository, type DeploymentRow, type ReleaseRow } from "./deployments.repository";

type Client = Db | Tx;

/** The public routes of a deployment, one spelling for the guard, the pages and the CLI. */
export const deploymentRoutes = (id: string) => ({
  predict: `/api/deployments/${id}/predict`,
  generate: `/api/deployments/${id}/generate`,
  stream: `/api/deployments/${id}/stream`,
  health: `/api/deployments/${id}/health`,
  /** MLflow's scoring protocol for a tabular deployment (server/protocols/mlflow). */
  invocations: `/api/deployments/${id}/invocations`,
  /** The base URL of an LLM deployment's OpenAI-compatible routes (`…/v1/chat/completions`, server/protocols/openai). */
  openai: `/api/deployments/${id}/v1`,
});

/** Which of them it answers: /predict (tabular) or /generate and /stream (llm), and /health. */
export function servedRoutes(id: string, kind: ServingKind): Partial<ReturnType<typeof deploymentRoutes>> {
  const r = deploymentRoutes(id);
  return kind === "llm" ? { generate: r.generate, stream: r.stream, health: r.health } : { predict: r.predict, health: r.health };
}

export async function findDeployment(db: Client, id: string): Promise<DeploymentRow> {
  const row = await deploymentsRepository(db).find(id);
  if (!row) throw notFound(`There is no deployment ${id}.`);
  return row;
}

export async function releaseView(db: Client, row: ReleaseRow): Promise<ReleaseView> {
  const version = await deploymentsRepository(db).versionNumber(row.versionId);
  return {
    id: row.id,
    number: row.number,
    versionId: row.versionId,
    version: version?.number ?? 0,
    kind: (RELEASE_KINDS as readonly string[]).includes(row.kind) ? (row.kind as ReleaseKind) : "switch",
    why: row.why,
    actor: ZActor.parse(JSON.parse(row.actor)),
    createdAt: row.createdAt,
  };
}

export async function deploymentView(db: Client, row: DeploymentRow): Promise<DeploymentView> {
  const repo = deploymentsRepository(db);
  const [target, model, release, kind, room] = await Promise.all([
    repo.computer(row.targetId),
    repo.modelSummary(row.modelId),
    row.currentReleaseId ? repo.release(row.currentReleaseId) : null,
    deploymentKind(db, row),
    storedCapacityGb(db, row.targetId).then((gb) => switchRoom(db, row, gb)),
  ]);
  if (!isDeploymentState(row.state)) throw new Error(`deployment ${row.id} has an unknown state "${row.state}"`);
  return {
    id: row.id,
    projectId: row.projectId,
    name: row.name,
    mode: ZDeploymentMode.parse(row.mode),
    kind,
    state: row.state,
    reason: row.reason,
    revision: row.revision,
    computer: target ?? { id: row.targetId, name: "(removed computer)" },
    model: model ?? { id: row.modelId, name: "(removed model)" },
    followsAlias: row.followsAlias,
    release: release ? await releaseView(db, release) : null,
    unreachable: unreachableOf(row),
    memory: row.mode === "resident" ? { gb: row.memoryGb ?? DEFAULT_MEMORY_GB[kind], isDefault: row.memoryGb === null } : null,
    idleUnloadMinutes: row.mode === "resident" ? row.idleUnloadMinutes : null,
    switchRoom: room,
    routes: deploymentRoutes(row.id),
    createdAt: row.createdAt,
  };
}

function unreachableOf(row: DeploymentRow): DeploymentView["unreachable"] {
  const note = row.state === "ready" || row.state === "switching" ? linkNote(row.id) : null;
  return note ? { since: note.since, reason: note.reason } : null;
}

export async function releasesOf(db: Client, deploymentId: string): Promise<ReleaseView[]> {
  const rows = await deploymentsRepository(db).releasesNewestFirst(deploymentId);
  return Promise.all(rows.map((r) => releaseView(db, r)));
}
