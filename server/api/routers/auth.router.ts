import { ownerProcedure, procedure, router } from "../trpc";
import { ownerService } from "@/server/auth/owner.service";
import { ZCreateTokenInput, ZSessionIdInput, ZTokenIdInput } from "@/server/auth/auth.schema";

import type { Principal } from "@/server/auth/principal";

const currentSession = (p: Principal) => (p.kind === "owner" ? p.sessionId : null);

export const authRouter = router({
  status: procedure.query(async ({ ctx }) => ({ passwordSet: await ownerService().hasPassword(), principal: ctx.principal.kind })),
  sessions: ownerProcedure.query(({ ctx }) => ownerService().listSessions(currentSession(ctx.principal))),
  revokeSession: ownerProcedure.input(ZSessionIdInput).mutation(({ input }) => ownerService().revokeSession(input.id)),
  /** Ends every session, this one included; returns how many ended. */
  signOutEverywhere: ownerProcedure.mutation(() => ownerService().endAllSessions(null)),
  tokens: ownerProcedure.query(() => ownerService().listTokens()),
  createToken: ownerProcedure.input(ZCreateTokenInput).mutation(({ input, ctx }) =>
    ownerService().createToken(input.name, { expires: input.expires, scope: input.scope }, ctx.principal.kind === "token" ? ctx.principal : { kind: "owner" }),
  ),
  revokeToken: ownerProcedure.input(ZTokenIdInput).mutation(async ({ input }) => {
    await ownerService().revokeTokenById(input.id);
  }),
});
