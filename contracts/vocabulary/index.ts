// The shared vocabulary: tasks, metrics, phases, state and issue words, byte counts and the
// data checks' recommended actions. Imported by components, server and CLI alike.
export * from "./tasks";
export * from "./metrics";
export * from "./phases";
export * from "./states";
export * from "./data-issues";
export * from "./format-bytes";
export * from "./recommended-actions";
