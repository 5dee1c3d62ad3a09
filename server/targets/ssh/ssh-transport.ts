/**
 * The worker protocol over one SSH exec per request: the command is built only from the
 * validated worker directory and fixed words (ssh-settings.ts), the request goes on
 * stdin, the response comes back on stdout (DESIGN "Worker protocol", unchanged).
 */
import type { TWorkerRequest } from "@/worker/protocol";
import { decodeResponse, encodeRequest, WorkerProtocolError, WorkerUnreachable, type ResponseOf, type WorkerTransport } from "../transport";
import { openSsh, type SshConnectOptions } from "./ssh-connection";
import { workerExecCommand } from "./ssh-settings";

export { HostKeyRejected } from "./ssh-connection";

const MAX_STDOUT_BYTES = 8 * 1024 * 1024;

export interface SshTransportOptions extends SshConnectOptions {
  workerDir: string;
  nodePath?: string;
}

/** Runs one fixed command and returns its stdout, stderr and exit code (stdin: `input`). */
export async function sshRun(
  opts: SshConnectOptions,
  command: string,
  input: string,
): Promise<{ stdout: string; stderr: string; code: number | null }> {
  const conn = await openSsh(opts);
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      conn.end();
      fn();
    };
    const timer = setTimeout(
      () => finish(() => reject(new WorkerUnreachable(`${opts.label} did not answer within ${Math.round(opts.timeoutMs / 1000)} s`))),
      opts.timeoutMs,
    );
    conn.on("error", (err: Error) => finish(() => reject(new WorkerUnreachable(`lost the SSH connection to ${opts.label}: ${err.message}`))));
    conn.on("close", () => finish(() => reject(new WorkerUnreachable(`${opts.label} closed the SSH connection before answering`))));
    conn.exec(command, (err, stream) => {
      if (err) return finish(() => reject(new WorkerUnreachable(`${opts.label}: could not run a command (${err.message})`)));
      const out: Buffer[] = [];
      let bytes = 0;
      let stderr = "";
      stream.on("data", (b: Buffer) => {
        bytes += b.length;
        if (bytes > MAX_STDOUT_BYTES) finish(() => reject(new WorkerProtocolError(`${opts.label} wrote more than ${MAX_STDOUT_BYTES} bytes`)));
        else out.push(b);
      });
      stream.stderr.on("data", (b: Buffer) => (stderr = (stderr + b.toString()).slice(-2000)));
      stream.on("close", (code: number | null) => finish(() => resolve({ stdout: Buffer.concat(out).toString("utf8"), stderr, code })));
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
