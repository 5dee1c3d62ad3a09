/**
 * How the controller talks to a worker: one JSON request in, one JSON response out
 * (DESIGN "Worker protocol"). `WorkerTransport` hides how the bytes travel — a local
 * child process today, one SSH exec later — so callers never know which.
 *
 * Errors, kept apart because callers react differently:
 * - WorkerUnreachable: the worker could not be run or did not answer in time (the job's
 *   outcome is unknown, not failed);
 * - WorkerRefused: the worker answered `ok: false` with a typed code;
 * - WorkerProtocolError: the worker answered something that is not the protocol.
 * Limits: requests ≤ 256 KiB (checked before sending); stdout is capped at 8 MiB.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import {
  MAX_REQUEST_BYTES,
  REQUEST_SCHEMAS,
  RESPONSE_SCHEMAS,
  ZErrorResponse,
  type TWorkerRequest,
  type WorkerOp,
} from "@/contracts/worker";
import type { z } from "zod";
import { controlSession } from "./control-session";
import { WorkerProtocolError, WorkerRefused, WorkerUnreachable } from "./transport-errors";

export type ResponseOf<O extends WorkerOp> = z.infer<(typeof RESPONSE_SCHEMAS)[O]>;

export interface WorkerTransport {
  /** Where the worker lives, in words, for messages ("This computer"). */
  readonly label: string;
  exec<R extends TWorkerRequest>(request: R): Promise<ResponseOf<R["op"]>>;
}

export { WorkerProtocolError, WorkerRefused, WorkerUnreachable };

const MAX_STDOUT_BYTES = 8 * 1024 * 1024;

/** Validates the request, encodes it, and checks the response against the op's schema. */
export function encodeRequest(request: TWorkerRequest, label: string): string {
  const schema = REQUEST_SCHEMAS[request.op];
  if (!schema) throw new WorkerProtocolError(`unknown worker operation ${JSON.stringify(request.op)}`);
  const parsed = schema.safeParse(request);
  if (!parsed.success) {
    throw new WorkerProtocolError(`request ${request.op} for the worker on ${label} is invalid: ${parsed.error.issues[0]?.message}`);
  }
  const body = JSON.stringify(parsed.data);
  if (Buffer.byteLength(body) > MAX_REQUEST_BYTES) {
    throw new WorkerProtocolError(`request ${request.op} for the worker on ${label} is larger than ${MAX_REQUEST_BYTES} bytes`);
  }
  return body;
}

export function decodeResponse<O extends WorkerOp>(op: O, stdout: string, label: string): ResponseOf<O> {
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch {
    throw new WorkerProtocolError(`the worker on ${label} answered ${op} with something that is not JSON: ${stdout.slice(0, 200)}`);
  }
  const refused = ZErrorResponse.safeParse(json);
  if (refused.success) throw new WorkerRefused(refused.data.error.code, refused.data.error.message, refused.data.error.details);
  const parsed = RESPONSE_SCHEMAS[op].safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new WorkerProtocolError(
      `the worker on ${label} answered ${op} outside the protocol (${issue?.path.join(".")}: ${issue?.message})`,
    );
  }
  return parsed.data as ResponseOf<O>;
}

export interface LocalTransportOptions {
  label: string;
  /** dist/worker/trainyard-worker.mjs */
  bundlePath: string;
  workerHome: string;
  timeoutMs: number;
  nodePath?: string;
}

/**
 * Quick operations (reading receipts, logs and outputs; submit and cancel, which only write
 * a receipt and start a detached supervisor) go through the long-lived control session;
 * the rest (probe runs Python discovery, prepare builds environments, import/gc and a large
 * put move bytes) each get their own process, so none of them holds up the quick ones.
 */
const SESSION_OPS: ReadonlySet<WorkerOp> = new Set<WorkerOp>(["inspect", "list", "logs", "cancel", "submit", "artifacts", "fetch", "peek"]);
/**
 * A put hashes its bytes before storing them: up to this size that takes a few tens of
 * milliseconds, less than starting a process (~0.3 s, paid by every upload and on-demand
 * prediction); a larger one gets its own process so the session's quick calls never wait on it.
 */
const SESSION_PUT_MAX_BYTES = 16 * 1024 * 1024;

function goesThroughSession(request: TWorkerRequest): boolean {
  if (request.op === "put") return request.bytes <= SESSION_PUT_MAX_BYTES;
  return SESSION_OPS.has(request.op);
}

/** The worker bundle as a child process of this server: stdin/stdout pipe, killed on timeout. */
export function localTransport(opts: LocalTransportOptions): WorkerTransport {
  const node = opts.nodePath ?? process.execPath;
  return {
    label: opts.label,
    exec<R extends TWorkerRequest>(request: R): Promise<ResponseOf<R["op"]>> {
      const body = encodeRequest(request, opts.label);
      if (!existsSync(opts.bundlePath)) {
        return Promise.reject(new WorkerUnreachable(`the worker on ${opts.label} cannot run: ${opts.bundlePath} does not exist`));
      }
      // Only what Node and Python discovery need: the server's secrets stay out of jobs.
      const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/", LANG: "C.UTF-8" } as unknown as NodeJS.ProcessEnv;
      if (goesThroughSession(request)) {
        return controlSession({ label: opts.label, node, bundlePath: opts.bundlePath, workerHome: opts.workerHome, env })
          .send(request.op, body, opts.timeoutMs)
          .then((line) => decodeResponse(request.op, line.trim(), opts.label) as ResponseOf<R["op"]>);
      }
      return new Promise((resolve, reject) => {
        const child = spawn(node, [opts.bundlePath, "control", "--home", opts.workerHome], { stdio: ["pipe", "pipe", "pipe"], env });
        const out: Buffer[] = [];
        let outBytes = 0;
        let err = "";
        let settled = false;
        const finish = (fn: () => void) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          fn();
        };
        const timer = setTimeout(() => {
          child.kill("SIGKILL");
          finish(() => reject(new WorkerUnreachable(`the worker on ${opts.label} did not answer ${request.op} within ${Math.round(opts.timeoutMs / 1000)} s`)));
        }, opts.timeoutMs);
        child.stdout.on("data", (b: Buffer) => {
          outBytes += b.length;
          if (outBytes > MAX_STDOUT_BYTES) {
            child.kill("SIGKILL");
            finish(() => reject(new WorkerProtocolError(`the worker on ${opts.label} wrote more than ${MAX_STDOUT_BYTES} bytes for ${request.op}`)));
          } else out.push(b);
        });
        child.stderr.on("data", (b: Buffer) => {
          if (err.length < 4000) err += b.toString("utf8");
        });
        child.on("error", (e) => finish(() => reject(new WorkerUnreachable(`the worker on ${opts.label} could not start: ${e.message}`))));
        child.on("close", (code, signal) => {
          const stdout = Buffer.concat(out).toString("utf8").trim();
          if (!stdout) {
            const why = signal ? `was killed by ${signal}` : `exited with code ${code}`;
            const tail = err.trim().split("\n").slice(-1)[0]?.slice(0, 300) ?? "";
            finish(() => reject(new WorkerUnreachable(`the worker on ${opts.label} ${why} without answering ${request.op}${tail ? `: ${tail}` : ""}`)));
            return;
          }
          finish(() => {
            try {
              resolve(decodeResponse(request.op, stdout, opts.label) as ResponseOf<R["op"]>);
            } catch (e) {
              reject(e);
            }
          });
        });
        child.stdin.on("error", () => {
          // EPIPE when the worker exits before reading: reported by "close" above.
        });
        child.stdin.end(body);
      });
    },
  };
}
