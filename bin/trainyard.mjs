#!/usr/bin/env node
// The `trainyard` command. The CLI is TypeScript: it runs from an esbuild bundle of its
// sources (bin/cli-bundle.mjs, rebuilt when they change), or through tsx when no bundle
// can be had, so that a clone works without a separate compile step.
import { fileURLToPath } from "node:url";
import path from "node:path";
import { bundledMain } from "./cli-bundle.mjs";

process.env.NEXT_TELEMETRY_DISABLED ??= "1";
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
let main = await bundledMain(root);
if (!main) {
  const { register } = await import("tsx/esm/api");
  register({ tsconfig: path.join(root, "tsconfig.json") });
  ({ main } = await import("../server/cli/main.ts"));
}
process.exitCode = await main(process.argv.slice(2));
