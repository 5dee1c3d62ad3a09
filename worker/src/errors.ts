// A typed worker error: `code` is one of the protocol's error codes and reaches the
// controller unchanged; `message` names the context.
import type { ErrorCode } from "../../contracts/worker/states";

export class WorkerError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = "WorkerError";
  }
}
