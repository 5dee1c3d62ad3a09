import path from "node:path";

/** The repository this CLI runs from (server/cli/ is two levels down). */
export const REPO_ROOT = path.resolve(import.meta.dirname, "../..");
