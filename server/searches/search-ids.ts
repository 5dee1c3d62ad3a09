// The operation ids a search derives from its own id and a trial's number: the same pass
// run twice, or again after a crash, finds the experiment or job it started before instead
// of starting another.

export const trialOpId = (searchId: string, n: number) => `search:${searchId}:trial:${n}`;
export const suggestOpId = (searchId: string, n: number) => `search:${searchId}:suggest:${n}`;
export const finalOpId = (searchId: string) => `search:${searchId}:final`;
/** The search an experiment or job belongs to, from its operation id (the three above), or null. */
export const searchOfOpId = (opId: string): string | null => /^search:([^:]+):/.exec(opId)?.[1] ?? null;
