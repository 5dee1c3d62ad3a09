import { AttemptLimiter } from "./rate-limit";
import { ConcurrencyGate } from "./concurrency-gate";

const LIMITER = Symbol.for("trainyard.loginLimiter");
const GATE = Symbol.for("trainyard.passwordGate");
type Globals = { [LIMITER]?: AttemptLimiter; [GATE]?: ConcurrencyGate };

/** The process's sign-in limiter: 5 attempts per address per 15 minutes, 10,000 addresses remembered. */
export function loginLimiter(): AttemptLimiter {
  const g = globalThis as Globals;
  return (g[LIMITER] ??= new AttemptLimiter({ limit: 5, windowMs: 15 * 60_000, maxKeys: 10_000 }));
}

/**
 * The process's password-check gate: one scrypt check needs 128 MiB and most of a core, so
 * at most 2 run at once and at most 16 wait; more are answered 503 at once.
 */
export function passwordGate(): ConcurrencyGate {
  const g = globalThis as Globals;
  return (g[GATE] ??= new ConcurrencyGate(2, 16));
}
