/** The three ways a worker call fails (see transport.ts), apart so that modules below the transport can raise them. */
import type { ErrorCode } from "@/contracts/worker";

export class WorkerUnreachable extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WorkerUnreachable";
  }
}

export class WorkerRefused extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "WorkerRefused";
  }
}

export class WorkerProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WorkerProtocolError";
  }
}
