/**
 * The shape of a recipe's recipe.json as the worker reads it (docs/dev/contracts.md).
 * A job's inputSchema is published for people and tools; the worker checks inputs against
 * the zod contract it is generated from (worker/src/input-contract.ts), not against this copy.
 */
import { z } from "zod";

const ZRecipeJobJson = z.object({
  description: z.string().default(""),
  inputSchema: z.record(z.string(), z.unknown()).default({}),
  example: z.unknown().optional(),
});

/** A module the warm runner imports once so that jobs forked from it skip the import. */
const ZPreloadModule = z.string().regex(/^[A-Za-z_][\w.]*$/, "a Python module name (letters, digits, _ and dots)");

export const ZRecipeJson = z.object({
  name: z.string().min(1),
  version: z.string().default("0.0.0"),
  description: z.string().default(""),
  module: z.string().regex(/^[A-Za-z_][\w.]*$/),
  python: z.string().optional(),
  requirements: z.string().default("requirements.txt"),
  /** A serving recipe (training/serving/*): runs until stopped, its ramGb is a hard memory budget, it gets a socket path. */
  resident: z.boolean().default(false),
  /**
   * The heavy modules of this recipe's jobs (docs/dev/warm-start.md). Non-empty: its jobs
   * fork from a warm runner that imported them; empty: every job starts a fresh interpreter.
   * Only modules that start no thread at import belong here (the runner checks).
   */
  preload: z.array(ZPreloadModule).default([]),
  jobs: z.record(z.string(), ZRecipeJobJson).default({}),
});
export type TRecipeJson = z.output<typeof ZRecipeJson>;
