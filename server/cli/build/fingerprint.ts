/**
 * A short fingerprint of a set of build inputs (files and folders under a root), so a
 * build can be named by the sources it came from. Test files and what only tests import
 * (server/testing/, *test-support.ts) never change a build and are left out: editing a
 * test helper rebuilt the web app (a minute of both CPUs) before the next test could start.
 */
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const TEST_FILE = /\.test\.tsx?$|(^|\/)server\/testing\/|test-support\.ts$/;

export interface FingerprintOptions {
  /**
   * Hash file contents (exact across checkouts that touch every file) instead of paths,
   * sizes and modification times (cheap for large trees).
   */
  content?: boolean;
  /** Extra strings that change the build (e.g. the Node version). */
  extra?: string[];
}

export function fingerprint(root: string, inputs: readonly string[], opts: FingerprintOptions = {}): string {
  const hash = createHash("sha256");
  const visit = (rel: string) => {
    const full = path.join(root, rel);
    if (!existsSync(full)) return;
    const st = statSync(full);
    if (st.isDirectory()) {
      for (const name of readdirSync(full).sort()) visit(path.join(rel, name));
    } else if (!TEST_FILE.test(rel)) {
      if (opts.content) hash.update(`${rel}\0`).update(readFileSync(full)).update("\n");
      else hash.update(`${rel}\0${st.size}\0${st.mtimeMs}\n`);
    }
  };
  inputs.forEach(visit);
  for (const s of opts.extra ?? []) hash.update(`extra\0${s}\n`);
  return hash.digest("hex").slice(0, 16);
}
