import { existsSync } from "node:fs";
import path from "node:path";

/**
 * The repository a module runs from, found by walking up from its folder to the one with
 * bin/trainyard.mjs: the same answer from the sources (server/…), the CLI's bundle
 * (dist/cli/<id>/) and the web build (.next-builds/<id>/…), where a fixed "../.." is not.
 */
export function repoRootAbove(dir: string): string {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    if (existsSync(path.join(at, "bin", "trainyard.mjs")) && existsSync(path.join(at, "package.json"))) return at;
    if (path.dirname(at) === at) throw new Error(`no Trainyard repository above ${dir}`);
  }
}
