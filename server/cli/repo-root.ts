import { repoRootAbove } from "@/server/config/repo-root";

/** The repository this CLI runs from. */
export const REPO_ROOT = repoRootAbove(import.meta.dirname);
