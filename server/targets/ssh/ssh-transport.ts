/**
 * The worker protocol over one SSH exec per request (ssh2): the command is built only
 * from the validated worker directory and fixed words (ssh-settings.ts), the request goes
 * on stdin, the response comes back on stdout. Host keys are checked strictly before any
 * byte of the request leaves (known-hosts.ts): an unknown or changed key refuses the
 * connection with its fingerprint, for the owner to accept explicitly.
 * Private keys are read from the user's files or used through ssh-agent; they are never
 * stored, logged or put in an error message.
 */
import { Client, type ConnectConfig } from "ssh2";
import type { TWorkerRequest } from "@/worker/protocol";
import { decodeResponse, encodeRequest, WorkerProtocolError, WorkerUnreachable, type ResponseOf, type WorkerTransport } from "../transport";
import type { HostKeyVerdict } from "./known-hosts";
import { workerExecCommand, type TSshEndpoint } from "./ssh-settings";

const MAX_STDOUT_BYTES = 8 * 1024 * 1024;

export class HostKeyRejected extends Error {
  constructor(
    readonly verdict: Exclude<HostKeyVerdict, { status: "known" }>,
    label: string,
  ) {
    super(
      verdict.status === "unknown"
        ? `${label} presented a host key Trainyard does not know (${verdict.fingerprint}). Check it and accept it to continue.`
        : verdict.status === "changed"
          ? `The host key of ${label} changed (now ${verdict.fingerprint}, known ${verdict.knownFingerprints.join(", ")}). The computer is blocked until the new key is accepted.`
          : `${label} presented a revoked host key (${verdict.fingerprint}).`,
    );
    this.name = "HostKeyRejected";
  }
}

export interface SshTransportOptions {
  label: string;
  endpoint: TSshEndpoint;
  workerDir: string;
  nodePath?: string;
  /** Contents of the private key file, when not using the agent. */
  privateKey?: Buffer;
  /** Path of the ssh-agent socket (SSH_AUTH_SOCK), read by the caller. */
  agent?: string;
  /** Decides on the server's host key (type, base64 blob). */
  verifyHostKey: (keyType: string, keyBase64: string) => HostKeyVerdict;
  timeoutMs: number;
}

function keyTypeOf(blob: Buffer): string {
  const len = blob.readUInt32BE(0);
  return blob.subarray(4, 4 + len).toString("ascii");
}

export function sshTransport(opts: SshTransportOptions): WorkerTransport {
  const command = workerExecCommand(opts.workerDir, opts.nodePath);
  return {
    label: opts.label,
    exec<R extends TWorkerRequest>(request: R): Promise<ResponseOf<R["op"]>> {
      const body = encodeRequest(request, opts.label);
      return new Promise((resolve, reject) => {
        const conn = new Client();
        let rejectedKey: HostKeyRejected | null = null;
        let settled = false;
        const finish = (fn: () => void) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          conn.end();
          fn();
        };
        const timer = setTimeout(
          () => finish(() => reject(new WorkerUnreachable(`the worker on ${opts.label} did not answer ${request.op} within ${Math.round(opts.timeoutMs / 1000)} s`))),
          opts.timeoutMs,
        );
        conn.on("ready", () => {
          conn.exec(command, (err, stream) => {
            if (err) return finish(() => reject(new WorkerUnreachable(`${opts.label}: could not start the worker (${err.message})`)));
            const out: Buffer[] = [];
            let bytes = 0;
            let stderr = "";
            stream.on("data", (b: Buffer) => {
              bytes += b.length;
              if (bytes > MAX_STDOUT_BYTES) finish(() => reject(new WorkerProtocolError(`the worker on ${opts.label} wrote more than ${MAX_STDOUT_BYTES} bytes`)));
              else out.push(b);
            });
            stream.stderr.on("data", (b: Buffer) => (stderr = (stderr + b.toString()).slice(-2000)));
            stream.on("close", (code: number | null) => {
              const stdout = Buffer.concat(out).toString("utf8");
              if (!stdout.trim()) {
                const why = code === 127 ? "Node.js or the worker is not installed there (set it up first)" : stderr.trim().split("\n").pop() || `exit ${code}`;
                return finish(() => reject(new WorkerUnreachable(`the worker on ${opts.label} gave no answer: ${why}`)));
              }
              try {
                const res = decodeResponse(request.op, stdout, opts.label) as ResponseOf<R["op"]>;
                finish(() => resolve(res));
              } catch (e) {
                finish(() => reject(e));
              }
            });
            stream.end(body);
          });
        });
        conn.on("error", (err: Error & { level?: string }) => {
          if (rejectedKey) return finish(() => reject(rejectedKey));
          finish(() => reject(new WorkerUnreachable(`cannot reach ${opts.label} over SSH: ${err.message}`)));
        });
        const config: ConnectConfig = {
          host: opts.endpoint.host,
          port: opts.endpoint.port,
          username: opts.endpoint.user,
          readyTimeout: Math.min(opts.timeoutMs, 20_000),
          hostVerifier: (key: Buffer) => {
            const verdict = opts.verifyHostKey(keyTypeOf(key), key.toString("base64"));
            if (verdict.status === "known") return true;
            rejectedKey = new HostKeyRejected(verdict, opts.label);
            return false;
          },
          ...(opts.privateKey ? { privateKey: opts.privateKey } : {}),
          ...(opts.agent ? { agent: opts.agent } : {}),
        };
        conn.connect(config);
      });
    },
  };
}
