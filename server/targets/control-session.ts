/**
 * One long-lived `control --serve` process per local worker home: requests go in one per
 * line and answers come back in the same order. A one-shot `control` costs a Node start
 * (~0.15 CPU-seconds); the reconcile loop and the experiment chains make several calls a
 * second while jobs run, which on a 2-CPU computer took a third of the CPU from the very
 * training they watched. Only quick operations use the session (see localTransport);
 * a slow one there would hold up every call queued behind it.
 *
 * Failure keeps today's meaning: a session that exits, or does not answer within the
 * request's time limit, fails every request it still holds with WorkerUnreachable and is
 * replaced by a fresh process on the next call. An idle session ends by itself.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { Socket } from "node:net";
import type { Readable, Writable } from "node:stream";
import { WorkerUnreachable } from "./transport-errors";

const IDLE_MS = 15_000;
const MAX_LINE_BYTES = 8 * 1024 * 1024;

interface Pending {
  op: string;
  resolve: (line: string) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

export interface SessionSpec {
  label: string;
  node: string;
  bundlePath: string;
  workerHome: string;
  env: NodeJS.ProcessEnv;
}

class ControlSession {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly pending: Pending[] = [];
  private buffered = "";
  private idle: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly spec: SessionSpec,
    private readonly onClosed: () => void,
  ) {
    this.child = spawn(spec.node, [spec.bundlePath, "control", "--home", spec.workerHome, "--serve"], { stdio: ["pipe", "pipe", "pipe"], env: spec.env });
    let stderr = "";
    this.child.stdout.setEncoding("utf8");
    this.child.stdout.on("data", (chunk: string) => this.read(chunk));
    this.child.stderr.on("data", (b: Buffer) => {
      if (stderr.length < 4000) stderr += b.toString("utf8");
    });
    this.child.stdin.on("error", () => {
      // EPIPE when the process died: "close" below fails what it held.
    });
    this.child.on("error", (e) => this.close(new WorkerUnreachable(`the worker on ${spec.label} could not start: ${e.message}`)));
    this.child.on("close", (code, signal) => {
      const why = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      const tail = stderr.trim().split("\n").slice(-1)[0]?.slice(0, 300) ?? "";
      this.close(new WorkerUnreachable(`the worker on ${spec.label} ${why} without answering${tail ? `: ${tail}` : ""}`));
    });
    this.detach();
  }

  /** Sends one request line; resolves with the answer line. */
  send(op: string, body: string, timeoutMs: number): Promise<string> {
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(new WorkerUnreachable(`the worker on ${this.spec.label} is not running`));
      const timer = setTimeout(() => {
        this.close(new WorkerUnreachable(`the worker on ${this.spec.label} did not answer ${op} within ${Math.round(timeoutMs / 1000)} s`));
        this.child.kill("SIGKILL");
      }, timeoutMs);
      this.pending.push({ op, resolve, reject, timer });
      this.attach();
      this.child.stdin.write(body + "\n");
    });
  }

  get isOpen(): boolean {
    return !this.closed;
  }

  private read(chunk: string) {
    this.buffered += chunk;
    if (this.buffered.length > MAX_LINE_BYTES + 1) {
      this.close(new WorkerUnreachable(`the worker on ${this.spec.label} wrote more than ${MAX_LINE_BYTES} bytes for one answer`));
      this.child.kill("SIGKILL");
      return;
    }
    for (let nl = this.buffered.indexOf("\n"); nl >= 0; nl = this.buffered.indexOf("\n")) {
      const line = this.buffered.slice(0, nl);
      this.buffered = this.buffered.slice(nl + 1);
      const p = this.pending.shift();
      if (!p) continue; // nothing asked for it: the protocol says this cannot happen
      clearTimeout(p.timer);
      p.resolve(line);
    }
    if (!this.pending.length) this.detach();
  }

  /** While a request waits, the session keeps the server's event loop alive. */
  private attach() {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    this.child.ref();
    pipeOf(this.child.stdout)?.ref();
  }

  /** Idle: it may not keep the server (or a test) running, and it ends after IDLE_MS. */
  private detach() {
    this.child.unref();
    for (const stream of [this.child.stdout, this.child.stderr, this.child.stdin]) pipeOf(stream)?.unref();
    if (this.idle) clearTimeout(this.idle);
    this.idle = setTimeout(() => this.end(), IDLE_MS);
    this.idle.unref();
  }

  private end() {
    if (this.pending.length || this.closed) return;
    this.close(new WorkerUnreachable(`the worker on ${this.spec.label} was closed`));
    this.child.stdin.end();
  }

  private close(err: WorkerUnreachable) {
    if (!this.closed) {
      this.closed = true;
      this.onClosed();
    }
    if (this.idle) clearTimeout(this.idle);
    for (const p of this.pending.splice(0)) {
      clearTimeout(p.timer);
      p.reject(err);
    }
  }
}

const sessions = new Map<string, ControlSession>();

/** The open session for this worker bundle and home, started when there is none. */
export function controlSession(spec: SessionSpec): ControlSession {
  const key = JSON.stringify([spec.node, spec.bundlePath, spec.workerHome]);
  const open = sessions.get(key);
  if (open?.isOpen) return open;
  const session: ControlSession = new ControlSession(spec, () => {
    if (sessions.get(key) === session) sessions.delete(key);
  });
  sessions.set(key, session);
  return session;
}

/** spawn's "pipe" stdio streams are sockets; only a socket can be unref'd so an idle session lets the process exit. */
function pipeOf(stream: Readable | Writable | null): Socket | null {
  return stream instanceof Socket ? stream : null;
}
