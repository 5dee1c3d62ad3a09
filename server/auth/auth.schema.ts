import { z } from "zod";
import { ZTokenScope } from "./scopes";

export const ZSessionIdInput = z.strictObject({ id: z.string().min(1).max(100) });
export const ZTokenIdInput = z.strictObject({ id: z.string().min(1).max(100) });
export const ZCreateTokenInput = z.strictObject({
  name: z.string().trim().min(1, "A token needs a name.").max(100, "A token name can have at most 100 characters."),
  /** A duration such as 12h, 30d or 2w (duration.ts); absent: until revoked. */
  expires: z.string().max(20).optional(),
  scope: ZTokenScope.default("full"),
});
export type TCreateTokenInput = z.infer<typeof ZCreateTokenInput>;
