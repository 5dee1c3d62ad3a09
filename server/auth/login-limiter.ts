import { FailureLimiter } from "./rate-limit";

const KEY = Symbol.for("trainyard.loginLimiter");
/** The process's failed-login limiter: 5 failures per address per 15 minutes. */
export function loginLimiter(): FailureLimiter {
  const g = globalThis as { [KEY]?: FailureLimiter };
  return (g[KEY] ??= new FailureLimiter(5, 15 * 60_000));
}
