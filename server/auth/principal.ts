/**
 * Who is calling, as decided by the request guard (server/http/request-guard.ts) and read
 * by the tRPC context and route handlers. `open` exists only while no owner password is set
 * on a loopback-bound server; `guardMissing` is what a request looks like when it reached
 * the app without passing the guard (e.g. `next start` run directly): it is never allowed.
 */
import { z } from "zod";
import { mayWrite, scopeRefusal, ZTokenScope, type Refusal, type Request } from "./scopes";

export const ZPrincipal = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("owner"), sessionId: z.string().min(1) }).strict(),
  z.object({ kind: z.literal("token"), tokenId: z.string().min(1), name: z.string(), scope: ZTokenScope }).strict(),
  z.object({ kind: z.literal("open") }).strict(),
]);
export type Principal = z.infer<typeof ZPrincipal>;

/** True when this principal may change state (a read-only token may not). */
export function mayMutate(p: Principal): boolean {
  return p.kind !== "token" || mayWrite(p.scope);
}

/** Why this principal may not make the request (scopes.ts decides for tokens; the owner may). */
export function principalRefusal(p: Principal, req: Request): Refusal | null {
  return p.kind === "token" ? scopeRefusal(p.scope, p.name, req) : null;
}
