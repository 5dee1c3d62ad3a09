/**
 * The most calls one tRPC batch may hold: the server answers a larger batch 400, and the
 * app's own batch link splits its calls at the same number. The total size of a batch is
 * bounded by the request guard's body limit (256 KiB) and, for GET, by the URL's length.
 */
export const TRPC_MAX_BATCH = 50;
