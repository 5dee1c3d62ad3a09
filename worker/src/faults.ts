// Test hook for disk-full handling: config `testFaults.enospcAfterBytes` makes every
// guarded writer in this process fail with ENOSPC once that many bytes were written.
// Config-driven (never env) so a test states it in the worker home it builds.
// `releaseReserve()` stands in for freeing the reserve file on a real full disk: after it,
// writes succeed again so the terminal receipt can be recorded.

let limit: number | null = null;
let written = 0;
let released = false;

export function configureFaults(f: { enospcAfterBytes?: number | undefined } | undefined): void {
  limit = f?.enospcAfterBytes ?? null;
  written = 0;
  released = false;
}

export function enospcError(context: string): NodeJS.ErrnoException {
  const e: NodeJS.ErrnoException = new Error(`ENOSPC: no space left on device, ${context}`);
  e.code = "ENOSPC";
  return e;
}

/** Count bytes about to be written; throws an injected ENOSPC when over the test limit. */
export function chargeWrite(bytes: number, context: string): void {
  if (limit === null || released) return;
  if (written + bytes > limit) throw enospcError(`${context} (injected by testFaults)`);
  written += bytes;
}

export function releaseInjectedFaults(): void {
  released = true;
}

export function isEnospc(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | null)?.code === "ENOSPC";
}
