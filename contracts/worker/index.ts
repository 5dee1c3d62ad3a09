// Public surface of the worker protocol: the ONLY part of worker/ the app imports.
// Depends on zod alone.
export * from "./states";
export * from "./requests";
export * from "./receipt";
export * from "./responses";
export * from "./refs";
export * from "./slurm";
