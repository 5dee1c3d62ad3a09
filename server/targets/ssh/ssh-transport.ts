/**
 * The worker protocol over one SSH exec per request: the command is built only from the
 * validated worker directory and fixed words (ssh-settings.ts), the request goes on
 * stdin, the response comes back on stdout (DESIGN "Worker protocol", unchanged).
 */
import type { TWorkerRequest } from "@/contracts/worker";
import { decodeResponse, encodeRequest, WorkerProtocolError, WorkerUnreachable, type ResponseOf, type WorkerTransport } from "../transport";
import type { SshConnectOptions } from "./ssh-connection";
import { lease, type Lease } from "./ssh-pool";
import { workerExecCommand } from "./ssh-settings";

export { HostKeyRejected } from "./ssh-connection";

const MAX_STDOUT_BYTES = 8 * 1024 * 1024;

export interface SshTransportOptions extends SshConnectOptions {
  workerDir: string;
  nodePath?: string;
}

class ChannelRefused extends WorkerUnreachable {}

type RunResult = { stdout: string; stderr: string; code: number | null };

/** Runs one fixed command and returns its stdout, stderr and exit code (stdin: `input`). */
export async function sshRun(opts: SshConnectOptions, command: string, input: string): Promise<RunResult> {
  const first = await lease(opts);
  try {
    return await runOn(first, opts, command, input);
  } catch (err) {
    // A reused connection may have died since its last call: try once on a fresh one.
    if (!(first.reused && err instanceof ChannelRefused)) throw err;
    return runOn(await lease(opts), opts, command, input);
  }
}

function runOn(l: Lease, opts: SshConnectOptions, command: string, input: string): Promise<RunResult> {
  const conn = l.conn;
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (broken: boolean, fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      conn.off("error", onError);
      conn.off("close", onClose);
      l.release(broken);
      fn();
    };
    const onError = (err: Error) => finish(true, () => reject(new WorkerUnreachable(`lost the SSH connection to ${opts.label}: ${err.message}`)));
    const onClose = () => finish(true, () => reject(new WorkerUnreachable(`${opts.label} closed the SSH connection before answering`)));
    // No answer in time: the connection is suspect (a cut link looks like this), so it is dropped.
    const timer = setTimeout(
      () => finish(true, () => reject(new WorkerUnreachable(`${opts.label} did not answer within ${Math.round(opts.timeoutMs / 1000)} s`))),
      opts.timeoutMs,
    );
    conn.on("error", onError);
    conn.on("close", onClose);
    conn.exec(command, (err, stream) => {
      if (err) return finish(true, () => reject(new ChannelRefused(`${opts.label}: could not run a command (${err.message})`)));
      const out: Buffer[] = [];
      let bytes = 0;
      let stderr = "";
      stream.on("data", (b: Buffer) => {
        bytes += b.length;
        if (bytes > MAX_STDOUT_BYTES) finish(true, () => reject(new WorkerProtocolError(`${opts.label} wrote more than ${MAX_STDOUT_BYTES} bytes`)));
        else out.push(b);
      });
      stream.stderr.on("data", (b: Buffer) => (stderr = (stderr + b.toString()).slice(-2000)));
      stream.on("close", (code: number | null) => finish(false, () => resolve({ stdout: Buffer.concat(out).toString("utf8"), stderr, code })));
      stream.end(input);
    });
  });
}

export function sshTransport(opts: SshTransportOptions): WorkerTransport {
  const command = workerExecCommand(opts.workerDir, opts.nodePath);
  return {
    label: opts.label,
    async exec<R extends TWorkerRequest>(request: R): Promise<ResponseOf<R["op"]>> {
      const body = encodeRequest(request, opts.label);
      const { stdout, stderr, code } = await sshRun(opts, command, body);
      if (!stdout.trim()) {
        const why =
          code === 127
            ? "Node.js was not found there (set the path of Node in the computer's settings)"
            : /Cannot find module/.test(stderr)
              ? `the worker is not installed in ${opts.workerDir} (use Set up)`
              : stderr.trim().split("\n").pop() || `exit ${code}`;
        throw new WorkerUnreachable(`the worker on ${opts.label} gave no answer: ${why}`);
      }
      return decodeResponse(request.op, stdout, opts.label) as ResponseOf<R["op"]>;
    },
  };
}
