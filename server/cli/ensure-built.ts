/**
 * `npm start` builds when needed: the production build is redone when any source file
 * that goes into it changed since the last build (a fingerprint of paths, sizes and
 * modification times, kept in .next/trainyard-build-stamp).
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { CliError } from "./cli-error";

const INPUTS = ["app", "components", "server", "public", "next.config.ts", "package-lock.json", "postcss.config.mjs", "tsconfig.json"];

function fingerprint(root: string): string {
  const hash = createHash("sha256");
  const visit = (rel: string) => {
    const full = path.join(root, rel);
    if (!existsSync(full)) return;
    const st = statSync(full);
    if (st.isDirectory()) {
      for (const name of readdirSync(full).sort()) visit(path.join(rel, name));
    } else {
      hash.update(`${rel}\0${st.size}\0${st.mtimeMs}\n`);
    }
  };
  INPUTS.forEach(visit);
  return hash.digest("hex");
}

export async function ensureBuilt(root: string): Promise<void> {
  const stampFile = path.join(root, ".next", "trainyard-build-stamp");
  const want = fingerprint(root);
  const have = existsSync(stampFile) ? readFileSync(stampFile, "utf8") : "";
  if (have === want && existsSync(path.join(root, ".next", "BUILD_ID"))) return;
  console.log("Building the web app (first start or after an update; about a minute)…");
  const nextBin = path.join(root, "node_modules", "next", "dist", "bin", "next");
  const result = spawnSync(process.execPath, [nextBin, "build"], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (result.status !== 0) throw new CliError("The web app build failed; see the output above.");
  // Fingerprint again: the build itself may touch inputs (Next rewrites tsconfig.json).
  writeFileSync(stampFile, fingerprint(root));
}
