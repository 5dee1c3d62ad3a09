/**
 * The project an MCP server is bound to, and the one rule every tool follows: an id is
 * looked up among the project's own records, read through API calls that take the
 * project (experiments.list, datasets.list, models.list), before anything is read by id.
 * An id from another project and an id that does not exist get the same answer, so an
 * agent learns nothing about other projects.
 *
 * The tools run in the server (serve-tool.ts): `api` is the API called in-process, shaped
 * like the client every other caller uses, so a tool reads exactly what the API answers.
 */
import type { TRPCClient } from "@trpc/client";
import type { AppRouter } from "@/server/api/root";
import { DomainError, isDomainError } from "@/server/errors";
import type { ExperimentListItem } from "./views";

export interface ProjectScope {
  api: TRPCClient<AppRouter>;
  /** Runs one API request; a refusal is the DomainError it was. */
  call: <T>(request: () => Promise<T>) => Promise<T>;
  projectId: string;
  projectName: string;
}

/** What a tool answers instead of a result: the message is all the agent sees. */
export class ToolRefusal extends DomainError {
  constructor(message: string, code: "CONFLICT" | "NOT_FOUND" = "CONFLICT") {
    super(code, message, { code: code === "NOT_FOUND" ? "not_found" : "tool_refused" });
  }
}

export const notFound = (scope: ProjectScope, what: string, id: string) => new ToolRefusal(`No ${what} "${id}" in project "${scope.projectName}".`, "NOT_FOUND");

/**
 * One request about an id the server checks against the project itself (searches.validation,
 * propose, cancelTrial take the project): its NOT_FOUND reads as every other not found here.
 */
export async function scopedCall<T>(scope: ProjectScope, what: string, id: string, request: () => Promise<T>): Promise<T> {
  try {
    return await scope.call(request);
  } catch (err) {
    if (isDomainError(err) && err.code === "NOT_FOUND") throw notFound(scope, what, id);
    throw err;
  }
}

export function listExperiments(scope: ProjectScope): Promise<ExperimentListItem[]> {
  return scope.call(() => scope.api.experiments.list.query({ projectId: scope.projectId }));
}

/** The experiment's list row, from the project's own list. */
export async function projectExperiment(scope: ProjectScope, id: string): Promise<ExperimentListItem> {
  const found = (await listExperiments(scope)).find((e) => e.id === id);
  if (!found || found.projectId !== scope.projectId) throw notFound(scope, "experiment", id);
  return found;
}

/** The project's datasets, or the one named (not found when it is another project's). */
export async function projectDatasetIds(scope: ProjectScope, id: string | undefined): Promise<string[]> {
  const ids = (await scope.call(() => scope.api.datasets.list.query({ projectId: scope.projectId }))).map((d) => d.id);
  if (id === undefined) return ids;
  if (!ids.includes(id)) throw notFound(scope, "dataset", id);
  return [id];
}
