// The references a job input may carry, which the worker replaces by read-only paths of
// its own before the recipe starts (docs/dev/contracts.md "Recipe run"):
//   "sha256:<64 hex>"      a blob in the worker's store, else a succeeded job's output dir
//   "checkpoints:<jobId>"  the checkpoints dir of an earlier job on the same worker that
//                          ended without succeeding (failed, cancelled, timed_out) and
//                          saved at least one checkpoint: how a new attempt resumes a
//                          stopped one. Both jobs must be on one worker; the checkpoints
//                          never travel.
// A resolved reference is listed in the job's receipt `inputRefs` (the bare hash, or the
// `checkpoints:<jobId>` text), which keeps it from gc while the job is active.
import { z } from "zod";

/** Job ids as the worker makes them (worker/src/home.ts newJobId): `j` + UTC yyyymmddhhmmss + `-` + 10 hex. */
export const JOB_ID_PATTERN = /^j[0-9]{14}-[0-9a-f]{10}$/;
export const ZWorkerJobId = z.string().regex(JOB_ID_PATTERN, "not a worker job id (j<14 digits>-<10 hex>)");

export const SHA256_REF = /^sha256:([0-9a-f]{64})$/;
/** Any string with this prefix is a checkpoints reference; a malformed job id is refused, never passed on. */
export const CHECKPOINTS_REF_PREFIX = "checkpoints:";

export const sha256Ref = (sha256: string) => `sha256:${sha256}`;
export const checkpointsRef = (jobId: string) => `${CHECKPOINTS_REF_PREFIX}${jobId}`;

/** The job id a `checkpoints:` input ref names, or null when `ref` is not one (or the id is malformed). */
export function checkpointsJobOf(ref: string): string | null {
  if (!ref.startsWith(CHECKPOINTS_REF_PREFIX)) return null;
  const jobId = ref.slice(CHECKPOINTS_REF_PREFIX.length);
  return JOB_ID_PATTERN.test(jobId) ? jobId : null;
}
