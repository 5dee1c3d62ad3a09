/**
 * Layout of TRAINYARD_HOME (DESIGN "Storage on disk"). The folder is created owner-only
 * (0700) because it holds the database, secrets and the user's data.
 */
import { chmodSync, mkdirSync, statSync } from "node:fs";
import path from "node:path";

export interface HomePaths {
  root: string;
  dbFile: string;
  datasetsDir: string;
  artifactsDir: string;
  workerHome: string;
  lockFile: string;
}

export function homePaths(root: string): HomePaths {
  return {
    root,
    dbFile: path.join(root, "trainyard.db"),
    datasetsDir: path.join(root, "datasets"),
    artifactsDir: path.join(root, "artifacts"),
    workerHome: path.join(root, "worker"),
    lockFile: path.join(root, "server.lock"),
  };
}

/** Creates the home (0700) and its managed folders; tightens an existing home's mode. */
export function ensureHome(root: string): HomePaths {
  const paths = homePaths(root);
  mkdirSync(root, { recursive: true, mode: 0o700 });
  if ((statSync(root).mode & 0o077) !== 0) chmodSync(root, 0o700);
  for (const dir of [paths.datasetsDir, paths.artifactsDir, paths.workerHome]) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }
  return paths;
}
