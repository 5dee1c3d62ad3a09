/**
 * The project an MCP server is bound to, and the one rule every tool follows: an id is
 * looked up among the project's own records, read through API calls that take the
 * project (experiments.list, datasets.list, models.list), before anything is read by id.
 * An id from another project and an id that does not exist get the same answer, so an
 * agent learns nothing about other projects.
 */
import type { Connection } from "@/server/cli/api-client";
import { withRetry } from "@/server/cli/api-client";
import { CliError } from "@/server/cli/cli-error";
import type { ExperimentListItem } from "./views";

/** A tool call waits this long for a server that stopped answering, then says so. */
const CALL_PATIENCE_MS = 15_000;

export interface ProjectScope {
  conn: Connection;
  projectId: string;
  projectName: string;
}

export const call = <T>(fn: () => Promise<T>): Promise<T> => withRetry(fn, { patienceMs: CALL_PATIENCE_MS });

const notFound = (scope: ProjectScope, what: string, id: string) =>
  new CliError(`No ${what} "${id}" in project "${scope.projectName}".`, 1, "not_found");

export function listExperiments(scope: ProjectScope): Promise<ExperimentListItem[]> {
  return call(() => scope.conn.api.experiments.list.query({ projectId: scope.projectId }));
}

/** The experiment's list row, from the project's own list. */
export async function projectExperiment(scope: ProjectScope, id: string): Promise<ExperimentListItem> {
  const found = (await listExperiments(scope)).find((e) => e.id === id);
  if (!found || found.projectId !== scope.projectId) throw notFound(scope, "experiment", id);
  return found;
}

/** The project's datasets, or the one named (not found when it is another project's). */
export async function projectDatasetIds(scope: ProjectScope, id: string | undefined): Promise<string[]> {
  const ids = (await call(() => scope.conn.api.datasets.list.query({ projectId: scope.projectId }))).map((d) => d.id);
  if (id === undefined) return ids;
  if (!ids.includes(id)) throw notFound(scope, "dataset", id);
  return [id];
}
