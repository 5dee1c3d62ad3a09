/**
 * The data recipe's profile.json as the server reads it (training/recipes/data/README.md
 * "profile"): only the fields server rules use, validated at this boundary. Unknown
 * fields pass through untouched in the stored JSON; they are simply not read here.
 */
import { z } from "zod";

const ZValueCount = z.object({ value: z.string(), count: z.number().int().nonnegative() });

export const ZProfileColumn = z.object({
  name: z.string(),
  type: z.enum(["numeric", "categorical", "boolean", "datetime", "text", "id_like", "empty"]),
  dtype: z.string(),
  missing: z.number().int().nonnegative(),
  distinct: z.number().int().nonnegative(),
  /** The most common values, most first (all of them when there are at most 10). */
  topValues: z.array(ZValueCount).optional(),
  /** The rarest values, fewest first (columns with more than 10 distinct values). */
  fewestValues: z.array(ZValueCount).optional(),
  /** Numbers only: every value is a whole number. */
  integers: z.boolean().optional(),
  /** Numbers only: the values, in file order, never go down (or never go up). */
  order: z.enum(["increasing", "decreasing"]).nullable().optional(),
});
export type TProfileColumn = z.infer<typeof ZProfileColumn>;

export const ZProfile = z.object({
  rows: z.number().int().nonnegative(),
  duplicateRows: z.number().int().nonnegative(),
  columns: z.array(ZProfileColumn),
});
export type TProfile = z.infer<typeof ZProfile>;
