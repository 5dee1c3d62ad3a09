/** The jobs of a holdout comparison: each on one computer, bounded, in an environment made ready first, with an opId that finds it again. */
import { createHash } from "node:crypto";
import type { Db } from "@/server/db/client";
import { runJobToEnd, type JobToEnd } from "@/server/jobs/job-to-end";

const STEP_TIMEOUT_MS = 10 * 60_000;

export type HoldoutStep = (s: Pick<JobToEnd, "opId" | "recipe" | "job" | "input" | "label">) => ReturnType<typeof runJobToEnd>;

export const holdoutSteps = (db: Db, targetId: string): HoldoutStep => (s) => runJobToEnd(db, { ...s, targetId, timeoutMs: STEP_TIMEOUT_MS, ensureEnvironment: true });

/** A short hash of what a step's result depends on, for its opId. */
export const shortHash = (parts: unknown) => createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 24);
