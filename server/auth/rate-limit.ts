/**
 * Sign-in attempt limiter: at most `limit` attempts per key (client address) within
 * `windowMs`. An attempt is counted when it starts, before the password is checked, so
 * parallel guesses cannot all slip through while the first ones are still hashing; a
 * successful sign-in resets its key. Memory is bounded: at most `maxKeys` addresses are
 * remembered, the least recently seen is forgotten first. In memory: a restart clears it,
 * which is acceptable for one owner behind one server.
 */
export interface AttemptLimiterOptions {
  limit: number;
  windowMs: number;
  maxKeys: number;
  now?: () => number;
}

export class AttemptLimiter {
  private readonly attempts = new Map<string, number[]>();
  private readonly now: () => number;

  constructor(private readonly opts: AttemptLimiterOptions) {
    this.now = opts.now ?? Date.now;
  }

  /** Attempts still inside the window for `key`; moves the key to the most recent end. */
  private recent(key: string): number[] {
    const cutoff = this.now() - this.opts.windowMs;
    const list = (this.attempts.get(key) ?? []).filter((t) => t > cutoff);
    this.attempts.delete(key);
    if (list.length) this.attempts.set(key, list);
    return list;
  }

  /**
   * Counts one attempt for `key` and returns 0, or returns the milliseconds until another
   * attempt is allowed (the attempt is then not counted).
   */
  take(key: string): number {
    const list = this.recent(key);
    if (list.length >= this.opts.limit) {
      this.attempts.set(key, list);
      return Math.max(1, list[0]! + this.opts.windowMs - this.now());
    }
    list.push(this.now());
    this.attempts.set(key, list);
    while (this.attempts.size > this.opts.maxKeys) {
      const oldest = this.attempts.keys().next().value as string;
      this.attempts.delete(oldest);
    }
    return 0;
  }

  /** Gives back the latest attempt of `key`: it never reached the password check. */
  refund(key: string): void {
    this.attempts.get(key)?.pop();
  }

  reset(key: string): void {
    this.attempts.delete(key);
  }

  /** Number of addresses remembered (for the memory bound's test). */
  get size(): number {
    return this.attempts.size;
  }
}
