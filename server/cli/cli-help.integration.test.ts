/**
 * Every command answers --help with its usage on stdout and exit 0, and runs nothing:
 * `start --help` starts no server, `build --help` builds nothing, `deploy --help` is not an
 * unknown option. The real CLI process, no server.
 */
import { describe, expect, it } from "vitest";
import { cliAsync, tempHome } from "@/tests/support/server-process";

const COMMANDS = ["start", "build", "owner", "token", "train", "finetune", "experiments", "searches", "models", "deploy", "deployments", "mcp", "backup", "dataset"];

describe("trainyard <command> --help", { timeout: 120_000 }, () => {
  it("prints each command's usage and exits 0, for --help and -h", async () => {
    const home = tempHome();
    // TRAINYARD_URL points nowhere: a command that ran instead of answering would fail or hang.
    const env = { TRAINYARD_HOME: home, TRAINYARD_URL: "http://127.0.0.1:9" };
    const runs = await Promise.all(COMMANDS.flatMap((c) => ["--help", "-h"].map(async (flag) => ({ c, flag, r: await cliAsync([c, flag], env) }))));
    for (const { c, flag, r } of runs) {
      expect(r.status, `${c} ${flag}: ${r.stderr}`).toBe(0);
      expect(r.stdout, `${c} ${flag}`).toMatch(/usage|Usage/);
      expect(r.stdout, `${c} ${flag}`).not.toMatch(/is running at|web app build/);
    }
  });
});
