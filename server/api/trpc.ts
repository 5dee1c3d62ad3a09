/**
 * tRPC building blocks: the context (who is calling), one middleware that maps domain
 * errors to tRPC errors (server/errors.ts's table), and the procedure builders. Every
 * request has already passed the request guard (server/http/request-guard.ts) before it
 * reaches a procedure.
 */
import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { ZodError } from "zod";
import { principalRefusal, type Principal } from "@/server/auth/principal";
import { ERROR_ANSWERS, isDomainError } from "@/server/errors";
import { PRINCIPAL_HEADER, readPrincipalMarker } from "@/server/http/guard-marker";

export interface Context {
  /** Who the request guard let in; null when the request did not pass the guard. */
  principal: Principal | null;
  /** Set only by the agent tools' route for the calls a tool makes on the server (server/mcp/serve-tool.ts); never from a request. */
  viaAgentTools?: true;
}

/** What a procedure is, beyond query or mutation: `credentials` for the owner's own (tokens, sessions). */
interface Meta {
  credentials?: true;
}

export function createContext(req: Request): Context {
  return { principal: readPrincipalMarker(req.headers.get(PRINCIPAL_HEADER)) };
}

const t = initTRPC.context<Context>().meta<Meta>().create({
  transformer: superjson,
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    return {
      ...shape,
      data: {
        ...shape.data,
        zodIssues: cause instanceof ZodError ? cause.issues.map((i) => ({ path: i.path, message: i.message })) : null,
        details: isDomainError(cause) ? (cause.details ?? null) : null,
      },
    };
  },
});

const domainErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && isDomainError(result.error.cause)) {
    const cause = result.error.cause;
    throw new TRPCError({ code: ERROR_ANSWERS[cause.code].trpc, message: cause.message, cause });
  }
  return result;
});

// Fail closed: a request that did not pass the guard is refused, whatever it calls; what a
// token's scope reaches is decided by server/auth/scopes.ts, as at every other door.
const authenticated = t.middleware(({ ctx, type, meta, next }) => {
  if (!ctx.principal) throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in with the owner password, or send an API token." });
  const refused = principalRefusal(ctx.principal, { write: type !== "query", credentials: meta?.credentials, viaAgentTools: ctx.viaAgentTools });
  if (refused) throw new TRPCError({ code: "FORBIDDEN", message: refused.message });
  return next({ ctx: { principal: ctx.principal } });
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
/** Reachable by whoever passed the request guard (the owner, a token, or open loopback). */
export const procedure = t.procedure.use(authenticated).use(domainErrors);

/**
 * The owner's own credentials: sessions and API tokens. The owner's session (or open
 * loopback) reaches these, and a token only with the explicit admin scope (scopes.ts); the
 * CLI's `trainyard token create` works on the machine itself, not through here.
 */
export const ownerProcedure = t.procedure.meta({ credentials: true }).use(authenticated).use(domainErrors);
