/**
 * tRPC building blocks: the context (who is calling), one middleware that maps domain
 * errors to tRPC errors (server/errors.ts's table), and the procedure builders. Every
 * request has already passed the request guard (server/http/request-guard.ts) before it
 * reaches a procedure.
 */
import { initTRPC, TRPCError } from "@trpc/server";
import superjson from "superjson";
import { ZodError } from "zod";
import { mayMutate, type Principal } from "@/server/auth/principal";
import { ERROR_ANSWERS, isDomainError } from "@/server/errors";
import { PRINCIPAL_HEADER, readPrincipalMarker } from "@/server/http/guard-marker";

export interface Context {
  /** Who the request guard let in; null when the request did not pass the guard. */
  principal: Principal | null;
}

export function createContext(req: Request): Context {
  return { principal: readPrincipalMarker(req.headers.get(PRINCIPAL_HEADER)) };
}

const t = initTRPC.context<Context>().create({
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

// Fail closed: a request that did not pass the guard is refused, whatever it calls; a
// read-only token may query but never mutate. The guard checks this too, per method.
const authenticated = t.middleware(({ ctx, type, next }) => {
  if (!ctx.principal) throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in with the owner password, or send an API token." });
  if (type !== "query" && !mayMutate(ctx.principal)) throw new TRPCError({ code: "FORBIDDEN", message: "This API token is read-only." });
  return next({ ctx: { principal: ctx.principal } });
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
/** Reachable by whoever passed the request guard (the owner, a token, or open loopback). */
export const procedure = t.procedure.use(authenticated).use(domainErrors);

/**
 * The owner's own credentials: sessions and API tokens. Only the owner's session (or open
 * loopback, where there is no owner password) reaches these: a token, however wide, can
 * neither mint another token (which would outlive its own revocation) nor end the owner's
 * sessions. The CLI's `trainyard token create` works on the machine itself, not through here.
 */
const ownerCredentials = t.middleware(({ ctx, next }) => {
  if (ctx.principal?.kind === "token") {
    throw new TRPCError({ code: "FORBIDDEN", message: "API tokens cannot manage sessions or tokens: sign in with the owner password, or use `trainyard token` on the server's machine." });
  }
  return next();
});
export const ownerProcedure = procedure.use(ownerCredentials);
