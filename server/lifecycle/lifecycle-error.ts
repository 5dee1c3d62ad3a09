/**
 * A move the lifecycle table does not allow. It is a conflict (the row is in a state that
 * does not lead there), with a code of its own so callers and tests can tell it from a
 * revision conflict.
 */
import { DomainError } from "@/server/errors";

export class IllegalTransitionError extends DomainError {
  constructor(
    readonly lifecycle: string,
    readonly id: string,
    readonly from: string,
    readonly to: string,
  ) {
    super("CONFLICT", `The ${lifecycle} ${id} cannot move from ${from} to ${to}.`, { code: "illegal_transition", lifecycle, from, to });
    this.name = "IllegalTransitionError";
  }
}

export function isIllegalTransition(e: unknown): e is IllegalTransitionError {
  return e instanceof IllegalTransitionError;
}
