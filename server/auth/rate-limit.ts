/**
 * Failed-login limiter: at most `limit` failures per key (client address) within
 * `windowMs`; further attempts are refused until the window passes. In memory: a
 * restart clears it, which is acceptable for one owner behind one server.
 */
export class FailureLimiter {
  private failures = new Map<string, number[]>();

  constructor(
    private readonly limit = 5,
    private readonly windowMs = 15 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  private recent(key: string): number[] {
    const cutoff = this.now() - this.windowMs;
    const list = (this.failures.get(key) ?? []).filter((t) => t > cutoff);
    this.failures.set(key, list);
    return list;
  }

  /** Milliseconds until another attempt is allowed; 0 when allowed now. */
  retryAfterMs(key: string): number {
    const list = this.recent(key);
    if (list.length < this.limit) return 0;
    return Math.max(0, list[0]! + this.windowMs - this.now());
  }

  recordFailure(key: string): void {
    this.recent(key).push(this.now());
  }

  reset(key: string): void {
    this.failures.delete(key);
  }
}
