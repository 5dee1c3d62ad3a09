// Every lifecycle table of Trainyard, and the helper that defines them. Depends on zod alone.
export * from "./define";
export * from "./job";
export * from "./experiment";
export * from "./data";
export * from "./registry";
export * from "./search";
export * from "./monitor";
export * from "./schedule";
export * from "./promotion";
