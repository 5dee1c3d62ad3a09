// Ask a warm runner to fork one job (the handshake of trainyard_recipe/warm_runner.py):
// send the job's request, read the leader's pid, and only then say "go". A start that
// fails anywhere before "go" ran nothing, so the caller may start the job cold instead.
import net from "node:net";
import type { TProcessIdentity } from "../../../contracts/worker/receipt";
import { identityOf } from "../proc";

export interface WarmRequest {
  module: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  statusFile: string;
  cpus: number;
}

export type WarmFork =
  | { ok: true; leader: TProcessIdentity; connection: net.Socket }
  | { ok: false; reason: string; noRunner: boolean };

/** Far above a fork's milliseconds: only a runner that is stuck or gone runs into it. */
const HANDSHAKE_MS = 5000;

export function forkFromRunner(socketPath: string, request: WarmRequest): Promise<WarmFork> {
  return new Promise((resolve) => {
    const conn = net.createConnection(socketPath);
    let buffered = Buffer.alloc(0);
    let settled = false;
    const fail = (reason: string, noRunner = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      conn.destroy();
      resolve({ ok: false, reason, noRunner });
    };
    const timer = setTimeout(() => fail(`the warm runner did not answer within ${HANDSHAKE_MS / 1000} s`), HANDSHAKE_MS);
    conn.on("error", (err: NodeJS.ErrnoException) => fail(`the warm runner is not reachable (${err.code ?? err.message})`, err.code === "ENOENT" || err.code === "ECONNREFUSED"));
    conn.on("close", () => fail("the warm runner closed the connection before the job started"));
    conn.on("connect", () => conn.write(`${JSON.stringify(request)}\n`));
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const nl = buffered.indexOf(0x0a);
      if (nl < 0) {
        if (buffered.length > 64 * 1024) fail("the warm runner's answer is not a line");
        return;
      }
      conn.off("data", onData);
      let answer: { pid?: unknown; error?: unknown };
      try {
        answer = JSON.parse(buffered.subarray(0, nl).toString("utf8"));
      } catch {
        return fail("the warm runner's answer is not JSON");
      }
      if (typeof answer.error === "string") return fail(`the warm runner refused: ${answer.error}`);
      const leader = typeof answer.pid === "number" ? identityOf(answer.pid) : null;
      if (!leader) return fail("the warm runner's forked process is gone before it started the job");
      settled = true;
      clearTimeout(timer);
      conn.removeAllListeners("close");
      conn.removeAllListeners("error");
      conn.on("error", () => {
        // After "go" the connection is the job's output; its end is read from the status file.
      });
      conn.pause();
      conn.write("go\n");
      resolve({ ok: true, leader, connection: conn });
    };
    conn.on("data", onData);
  });
}
