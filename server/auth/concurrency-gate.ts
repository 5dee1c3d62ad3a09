/**
 * Runs at most `maxActive` tasks at once; up to `maxWaiting` more wait in order, and any
 * beyond that are refused at once with GateFull (the caller answers 503). Used to bound
 * the memory and CPU that password checks (scrypt) can take.
 */
export class GateFull extends Error {
  constructor() {
    super("Too many sign-ins are being checked right now.");
    this.name = "GateFull";
  }
}

export class ConcurrencyGate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly maxActive: number,
    private readonly maxWaiting: number,
  ) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.maxActive) {
      if (this.waiting.length >= this.maxWaiting) throw new GateFull();
      // The slot is handed over by the finishing task, so `active` never drops in between.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active++;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }

  /** Tasks running now (for tests). */
  get running(): number {
    return this.active;
  }
}
