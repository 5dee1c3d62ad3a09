/**
 * The data recipe's profile.json as server rules read it: the contract's fields those
 * rules use (contracts/recipes ZProfile), so a stored profile and a hand-made one in a
 * test parse alike. Fields the rules do not read are dropped here, not re-typed.
 */
import { z } from "zod";
import { ZProfile as ZProfileContract, ZProfileColumn as ZProfileColumnContract } from "@/contracts/recipes";

export const ZProfileColumn = z.object(
  ZProfileColumnContract.pick({ name: true, type: true, dtype: true, missing: true, distinct: true, topValues: true, fewestValues: true, integers: true, order: true }).shape,
);
export type TProfileColumn = z.infer<typeof ZProfileColumn>;

export const ZProfile = z.object({
  ...ZProfileContract.pick({ rows: true, duplicateRows: true }).shape,
  columns: z.array(ZProfileColumn),
});
export type TProfile = z.infer<typeof ZProfile>;
