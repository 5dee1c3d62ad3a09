/**
 * Enrolls a test sshd as an SSH training computer through the API, the way an owner
 * does: add it, Test access (its unknown key refused), accept the fingerprint ssh-keygen
 * shows, Set up. The server's worker directory shares the recipe environments folder
 * with This computer, so nothing is built twice.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { TEST_ENVS_DIR, type TestServer } from "./server-harness";
import type { TestSshd } from "./sshd-harness";

export const hostKeyFingerprint = (sshd: TestSshd) =>
  spawnSync("ssh-keygen", ["-lf", path.join(sshd.dir, "host_key.pub")], { encoding: "utf8" }).stdout.split(" ")[1] ?? "";

export async function enrollTestComputer(server: TestServer, sshd: TestSshd, name: string): Promise<{ id: string; workerDir: string }> {
  const workerDir = path.join(mkdtempSync(path.join(os.tmpdir(), "trainyard-remote-")), "trainyard");
  mkdirSync(path.join(workerDir, "home"), { recursive: true });
  writeFileSync(path.join(workerDir, "home", "config.json"), JSON.stringify({ envsDir: TEST_ENVS_DIR }));
  const t = await server.client.targets.addServer.mutate({
    name,
    connection: { mode: "manual", host: sshd.host, port: sshd.port, user: sshd.user, keyPath: sshd.clientKeyPath },
    workerDir,
    nodePath: process.execPath,
  });
  const first = await server.client.targets.testAccess.mutate({ id: t.id });
  if (first.hostKeyRefused) await server.client.targets.acceptHostKey.mutate({ id: t.id, fingerprint: hostKeyFingerprint(sshd) });
  await server.client.targets.setup.mutate({ id: t.id });
  return { id: t.id, workerDir };
}
