#!/usr/bin/env node
// The `trainyard` command. The CLI is TypeScript, loaded through tsx so that a clone
// works without a separate compile step.
import { register } from "tsx/esm/api";
import { fileURLToPath } from "node:url";
import path from "node:path";

process.env.NEXT_TELEMETRY_DISABLED ??= "1";
register({ tsconfig: path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "tsconfig.json") });
const { main } = await import("../server/cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
