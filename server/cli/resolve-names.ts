/** The names a person types on the command line, resolved to the server's ids. */
import { CliError } from "./cli-error";
import { withRetry, type Connection } from "./api-client";

/** The project of that name (case-insensitive), created when there is none; an archived one is refused. */
export async function resolveProject(conn: Connection, name: string) {
  const projects = await withRetry(() => conn.api.projects.list.query({ includeArchived: true }));
  const found = projects.find((p) => p.name.toLowerCase() === name.toLowerCase());
  if (found?.archived) throw new CliError(`Project "${found.name}" is archived; restore it first.`);
  return found ?? (await withRetry(() => conn.api.projects.create.mutate({ name })));
}

/**
 * The training computer of that name (case-insensitive; "local" is This computer), or "any":
 * the server chooses, when the work starts, the computer whose live capacity fits.
 */
export async function resolveComputer(conn: Connection, name: string): Promise<string> {
  if (name.toLowerCase() === "any") return "any";
  const targets = await withRetry(() => conn.api.targets.list.query());
  const t = targets.find((x) => x.name.toLowerCase() === name.toLowerCase() || (name === "local" && x.thisComputer));
  if (!t) throw new CliError(`No training computer named "${name}" (have: ${targets.map((x) => x.name).join(", ")}).`);
  return t.id;
}
