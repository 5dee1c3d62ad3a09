/**
 * `npm start` builds when needed. Each source version (a fingerprint of the paths,
 * sizes and modification times of everything that goes into the build) is built into
 * its own folder `.next-builds/<fingerprint>/`, so a rebuild never replaces files that a
 * running server still reads. Concurrent starts of one version build it once (a lock
 * file); builds other than the newest two are removed when unused for a day.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { CliError } from "./cli-error";

const INPUTS = ["app", "components", "server", "public", "next.config.ts", "package-lock.json", "postcss.config.mjs", "tsconfig.json", "generated"];
const BUILDS = ".next-builds";

function fingerprint(root: string): string {
  const hash = createHash("sha256");
  const visit = (rel: string) => {
    const full = path.join(root, rel);
    if (!existsSync(full)) return;
    const st = statSync(full);
    if (st.isDirectory()) {
      for (const name of readdirSync(full).sort()) visit(path.join(rel, name));
    } else if (!/\.test\.tsx?$/.test(rel)) {
      hash.update(`${rel}\0${st.size}\0${st.mtimeMs}\n`);
    }
  };
  INPUTS.forEach(visit);
  return hash.digest("hex").slice(0, 16);
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function pruneOldBuilds(buildsDir: string, keep: string): void {
  const dirs = readdirSync(buildsDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name !== keep)
    .map((e) => ({ name: e.name, mtime: statSync(path.join(buildsDir, e.name)).mtimeMs }))
    .sort((a, b) => b.mtime - a.mtime);
  for (const d of dirs.slice(1)) {
    if (Date.now() - d.mtime > 86_400_000) rmSync(path.join(buildsDir, d.name), { recursive: true, force: true });
  }
}

/** Returns the distDir (relative to the repo) holding a build of the current sources. */
export async function ensureBuilt(root: string): Promise<string> {
  const buildsDir = path.join(root, BUILDS);
  mkdirSync(buildsDir, { recursive: true });
  writeFileSync(path.join(buildsDir, "tsconfig.json"), JSON.stringify({ extends: "../tsconfig.json" }, null, 2));
  const fp = fingerprint(root);
  const distRel = path.join(BUILDS, fp);
  const dist = path.join(root, distRel);
  const lock = `${dist}.building`;
  for (;;) {
    if (existsSync(path.join(dist, "BUILD_ID")) && !existsSync(lock)) return distRel;
    try {
      writeFileSync(lock, String(process.pid), { flag: "wx" });
      break;
    } catch {
      const owner = Number((await import("node:fs")).readFileSync(lock, "utf8"));
      if (!owner || !pidAlive(owner)) unlinkSync(lock);
      else await sleep(500);
    }
  }
  try {
    if (existsSync(path.join(dist, "BUILD_ID"))) return distRel;
    rmSync(dist, { recursive: true, force: true });
    console.log("Building the web app (first start or after an update; about a minute)…");
    const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
    const result = spawnSync(process.execPath, [nextBin, "build"], {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", TRAINYARD_DIST_DIR: distRel },
    });
    if (result.status !== 0) {
      rmSync(dist, { recursive: true, force: true });
      throw new CliError("The web app build failed; see the output above.");
    }
    pruneOldBuilds(buildsDir, fp);
    return distRel;
  } finally {
    unlinkSync(lock);
  }
}
