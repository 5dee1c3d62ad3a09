/**
 * The one owner check for route handlers under app/ (tRPC has its own middleware with the
 * same rule). The guard has already decided; this reads its marker and fails closed when
 * it is missing, so a route is protected even when Next.js runs without the guard.
 */
import { principalRefusal, type Principal } from "@/server/auth/principal";
import { DomainError } from "@/server/errors";
import { errorResponse } from "./error-response";
import { DEPLOYMENT_KEY_HEADER, PRINCIPAL_HEADER, readDeploymentKeyMarker, readPrincipalMarker } from "./guard-marker";

export type Access = "read" | "write";

/**
 * The caller, or the response that refuses them (401 anonymous, 403 when the token's scope
 * does not reach it: server/auth/scopes.ts). `viaAgentTools` only for the agent tools' route.
 */
export function routeCaller(req: Request, access: Access, opts: { viaAgentTools?: boolean } = {}): Principal | Response {
  const principal = readPrincipalMarker(req.headers.get(PRINCIPAL_HEADER));
  if (!principal) return errorResponse(new DomainError("UNAUTHORIZED", "Sign in with the owner password, or send an API token.", { code: "sign_in_required" }), "Signing in");
  const refused = principalRefusal(principal, { write: access === "write", viaAgentTools: opts.viaAgentTools });
  if (refused) return errorResponse(new DomainError("FORBIDDEN", refused.message, { code: refused.code }), "Changing");
  return principal;
}

type Handler<C> = (req: Request, ctx: C) => Promise<Response> | Response;

/** Wraps a route handler so it runs only for a caller allowed `access`. */
export function guarded<C>(access: Access, handler: Handler<C>): Handler<C> {
  return (req, ctx) => {
    const caller = routeCaller(req, access);
    return caller instanceof Response ? caller : handler(req, ctx);
  };
}

type DeploymentHandler = (req: Request, deploymentId: string) => Promise<Response> | Response;

/**
 * For a deployment's public routes: a key of THIS deployment (checked by the guard, which
 * let it reach no other path), or a signed-in owner or API token as `guarded` allows. A key of another
 * deployment never gets here; should it, it reads as no caller at all.
 */
export function guardedDeployment(access: Access, handler: DeploymentHandler) {
  return async (req: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> => {
    const { id } = await ctx.params;
    const grant = readDeploymentKeyMarker(req.headers.get(DEPLOYMENT_KEY_HEADER));
    if (grant) {
      if (grant.deploymentId !== id) return errorResponse(new DomainError("UNAUTHORIZED", "The deployment key is not valid for this deployment.", { code: "deployment_key_refused" }), "Calling a deployment");
      return handler(req, id);
    }
    const caller = routeCaller(req, access);
    if (caller instanceof Response) return caller;
    // Authenticated by default: a server with no owner password lets every local caller in
    // as "open", but a deployment answers only to its key or a signed-in owner / token, so
    // another program or user on the machine cannot call a model by guessing its id.
    if (caller.kind === "open") return errorResponse(new DomainError("UNAUTHORIZED", "A deployment answers only to one of its keys (create one with `trainyard deployments keys create`), or a signed-in owner or API token.", { code: "deployment_key_required" }), "Calling a deployment");
    return handler(req, id);
  };
}
