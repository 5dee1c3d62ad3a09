// The worker over SSH against a real sshd on loopback (the same machine: these numbers
// are SSH's own cost, not a network's).
//   npx tsx bench/ssh.ts [--mb 200]
// Prints: probe round trip over SSH vs through the local pipe (median of 20; each SSH call
// is a new connection: TCP, key exchange, auth, exec), and SFTP upload/download
// throughput for one file of --mb MiB through the resumable upload and the fetch copy.
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, cpSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { WORKER_PROTOCOL } from "../contracts/worker";
import { download, openSftp, uploadFrom } from "../server/targets/ssh/sftp";
import { sshTransport } from "../server/targets/ssh/ssh-transport";
import { localTransport } from "../server/targets/transport";
import { buildWorkerBundle } from "../server/testing/server-harness";
import { directConnectOptions, startSshd } from "../server/testing/sshd-harness";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};

async function main() {
  const mb = arg("--mb", 200);
  const entry = await buildWorkerBundle();
  const root = mkdtempSync(path.join(os.tmpdir(), "bench-ssh-"));
  const workerDir = path.join(root, "trainyard");
  mkdirSync(path.join(workerDir, "home", "incoming"), { recursive: true });
  cpSync(path.dirname(entry), workerDir, { recursive: true });
  const sshd = await startSshd();
  try {
    const opts = directConnectOptions(sshd, "bench");
    const overSsh = sshTransport({ ...opts, workerDir, nodePath: process.execPath });
    const local = localTransport({ label: "local", bundlePath: path.join(workerDir, "trainyard-worker.mjs"), workerHome: path.join(workerDir, "home"), timeoutMs: 30_000 });
    const time = async (f: () => Promise<unknown>) => {
      const t0 = performance.now();
      await f();
      return performance.now() - t0;
    };
    const ssh: number[] = [];
    const pipe: number[] = [];
    for (let i = 0; i < 22; i++) {
      const a = await time(() => overSsh.exec({ protocol: WORKER_PROTOCOL, op: "probe" }));
      const b = await time(() => local.exec({ protocol: WORKER_PROTOCOL, op: "probe" }));
      if (i < 2) continue; // warm-up
      ssh.push(a);
      pipe.push(b);
    }
    console.log(`load average: ${os.loadavg().map((x) => x.toFixed(1)).join(" ")}`);
    console.log(`probe over SSH (new connection each): median ${median(ssh).toFixed(0)} ms (min ${Math.min(...ssh).toFixed(0)}, max ${Math.max(...ssh).toFixed(0)})`);
    console.log(`probe through the local pipe:          median ${median(pipe).toFixed(0)} ms`);

    const file = path.join(root, "data.bin");
    writeFileSync(file, randomBytes(mb * 1024 * 1024));
    const sha256 = createHash("sha256").update(readFileSync(file)).digest("hex");
    const s = await openSftp(opts);
    const up = await time(() => uploadFrom(s, file, `${workerDir}/home/incoming/${sha256}.part`, 0));
    const put = await time(() => overSsh.exec({ protocol: WORKER_PROTOCOL, op: "put", sha256, bytes: mb * 1024 * 1024 }));
    const back = path.join(root, "back.bin");
    const down = await time(() => download(s, `${workerDir}/home/store/${sha256.slice(0, 2)}/${sha256}`, back));
    s.close();
    if (createHash("sha256").update(readFileSync(back)).digest("hex") !== sha256) throw new Error("the downloaded copy differs");
    console.log(`SFTP upload of ${mb} MiB: ${(up / 1000).toFixed(2)} s (${((mb * 1000) / up).toFixed(0)} MiB/s), then put (SHA-256 check + rename) ${(put / 1000).toFixed(2)} s`);
    console.log(`SFTP download of ${mb} MiB: ${(down / 1000).toFixed(2)} s (${((mb * 1000) / down).toFixed(0)} MiB/s)`);
  } finally {
    await sshd.stop();
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
