// Runs `prisma generate` without the native schema engine download, which is
// unreachable behind many firewalls: generate never runs the engine, it only
// checks that the file exists (STACK-NOTES).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const cli = "node_modules/prisma/build/index.js";
if (!existsSync(cli)) {
  console.error("prisma is not installed; run npm install first");
  process.exit(1);
}
const result = spawnSync(process.execPath, [cli, "generate"], {
  stdio: "inherit",
  env: {
    ...process.env,
    PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? "/bin/false",
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
    CHECKPOINT_DISABLE: "1",
  },
});
process.exit(result.status ?? 1);
