/**
 * Every request passes here before Next.js sees it, in this order: the path (one
 * normalised reading, or 400), the Host header (DNS rebinding, 421), the Origin of a
 * mutation (CSRF: scheme, host and port must be this server's own, 403), the body's size
 * (413/411), then who is calling when an owner password is set (session cookie for the
 * browser, bearer token for scripts). A token's scope is checked here as at every door
 * (server/auth/scopes.ts): a read-only token changes nothing, an agent token reaches the
 * agent tools' route only (403).
 * A deployment key (`tyd_…`) is no principal: it opens exactly its own deployment's
 * public routes (normalised path, exact match) and nothing else (401 anywhere else).
 * What it decides reaches the app only through the marker in guard-marker.ts.
 */
import type { IncomingMessage } from "node:http";
import { ownerService, SESSION_COOKIE } from "@/server/auth/owner.service";
import { principalRefusal, type Principal } from "@/server/auth/principal";
import { hostNameOf } from "./allowed-hosts";
import { clientAddress } from "./client-address";
import { isDeploymentKey, verifyKey } from "@/server/auth/deployment-key-check";
import { getDb } from "@/server/db/client";
import { CLIENT_HEADER, DEPLOYMENT_KEY_HEADER, PRINCIPAL_HEADER, type DeploymentKeyGrant } from "./guard-marker";
import { JSON_BODY_LIMIT } from "./json-body";
import { deploymentOfRoute, hasStreamedBody, isAgentToolsPath, isPublicPath, normaliseRequestPath } from "./request-path";

export { CLIENT_HEADER, PRINCIPAL_HEADER } from "./guard-marker";

export type GuardResult =
  | { ok: true; principal: Principal }
  | { ok: true; deploymentKey: DeploymentKeyGrant }
  | { ok: false; status: number; code: GuardRefusal; message: string; redirect?: string; headers?: Record<string, string> };

/** Why the guard refused a request: the `code` of its JSON answer, as route handlers answer theirs. */
export type GuardRefusal =
  | "bad_path"
  | "unknown_host"
  | "cross_site"
  | "length_required"
  | "too_large"
  | "sign_in_required"
  | "session_refused"
  | "read_only_token"
  | "agent_token"
  | "deployment_key_refused"
  | "method_not_allowed";

/**
 * The methods any route of this server declares; any other (TRACE, CONNECT, made-up
 * words) is answered 405 here, before Next.js, which has no answer of its own for them.
 */
export const SERVED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
const SERVED = new Set<string>(SERVED_METHODS);

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) {
      try {
        return decodeURIComponent(v.join("="));
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

export interface GuardOptions {
  allowedHosts: Set<string>;
  /** Exact origins (`scheme://host:port`) this server answers as, the public origin included. */
  ownOrigins: () => Set<string>;
  passwordSet: () => Promise<boolean>;
  trustedProxy?: string;
  jsonBodyLimit?: number;
}

function refuse(status: number, code: GuardRefusal, message: string, redirect?: string): GuardResult {
  return { ok: false, status, code, message, redirect };
}

function sameOrigin(origin: string, own: Set<string>): boolean {
  try {
    const url = new URL(origin);
    return own.has(url.origin);
  } catch {
    return false;
  }
}

function bodyVerdict(req: IncomingMessage, path: string, limit: number): GuardResult | null {
  if (hasStreamedBody(path)) return null;
  const length = req.headers["content-length"];
  if (req.headers["transfer-encoding"] !== undefined) {
    return refuse(411, "length_required", "Send the request body with a Content-Length header.");
  }
  if (length !== undefined && (!/^\d+$/.test(length) || Number(length) > limit)) {
    return refuse(413, "too_large", `The request body is larger than ${Math.round(limit / 1024)} KiB.`);
  }
  return null;
}

export async function guardRequest(req: IncomingMessage, opts: GuardOptions): Promise<GuardResult> {
  delete req.headers[PRINCIPAL_HEADER];
  delete req.headers[DEPLOYMENT_KEY_HEADER];
  req.headers[CLIENT_HEADER] = clientAddress(req.socket.remoteAddress, req.headers["x-forwarded-for"], opts.trustedProxy);

  const method = req.method ?? "GET";
  if (!SERVED.has(method)) {
    return { ok: false, status: 405, code: "method_not_allowed", message: `The method ${method} is not served here.`, headers: { allow: SERVED_METHODS.join(", ") } };
  }
  const target = normaliseRequestPath(req.url ?? "/");
  if (!target.ok) return refuse(400, "bad_path", `Request refused: ${target.reason}.`);
  const host = req.headers.host;
  if (!host || !opts.allowedHosts.has(hostNameOf(host))) {
    return refuse(421, "unknown_host", `This Trainyard server does not answer to the name "${host ?? ""}".`);
  }
  const mutation = !SAFE_METHODS.has(method);
  if (mutation) {
    const origin = req.headers.origin;
    if (origin !== undefined && !sameOrigin(origin, opts.ownOrigins())) {
      return refuse(403, "cross_site", "Request refused: it came from another site (Origin check).");
    }
    if (origin === undefined && req.headers["sec-fetch-site"] === "cross-site") {
      return refuse(403, "cross_site", "Request refused: it came from another site.");
    }
  }
  const tooBig = bodyVerdict(req, target.path, opts.jsonBodyLimit ?? JSON_BODY_LIMIT);
  if (tooBig) return tooBig;

  const bearer = bearerOf(req);
  if (bearer !== undefined && isDeploymentKey(bearer)) return deploymentKeyVerdict(bearer, target.path);
  const principal = await identify(req, opts);
  if (principal && "refused" in principal) return refuse(401, "session_refused", principal.refused);
  if (principal) {
    const refused = principalRefusal(principal, { write: mutation, viaAgentTools: isAgentToolsPath(target.path) });
    // Credentials are a procedure's own matter (tRPC checks them).
    if (refused && refused.code !== "owner_credentials") return refuse(403, refused.code, refused.message);
    return { ok: true, principal };
  }
  if (isPublicPath(target.path)) return { ok: true, principal: { kind: "open" } };
  const wantsPage = !mutation && !target.path.startsWith("/api/") && target.path !== "/metrics";
  return refuse(
    401,
    "sign_in_required",
    "Sign in with the owner password, or send an API token.",
    wantsPage ? `/login?next=${encodeURIComponent(target.path + target.search)}` : undefined,
  );
}

const bearerOf = (req: IncomingMessage): string | undefined => {
  const auth = req.headers.authorization;
  return auth?.startsWith("Bearer ") ? auth.slice(7).trim() : undefined;
};

/** A deployment key opens its own deployment's public routes only; every refusal reads the same. */
async function deploymentKeyVerdict(key: string, path: string): Promise<GuardResult> {
  const deploymentId = deploymentOfRoute(path);
  if (!deploymentId) return refuse(401, "deployment_key_refused", "A deployment key works only on its deployment's routes (/api/deployments/<id>/predict, /generate, /stream, /health, /openapi.json, and the protocol routes /v1/…, /invocations, /ping and /v2/…).");
  const check = await verifyKey(getDb(), deploymentId, key);
  return check.ok ? { ok: true, deploymentKey: { deploymentId, keyId: check.keyId } } : refuse(401, "deployment_key_refused", check.message);
}

/** The caller: a token, a session, "open" when no password is set, null (anonymous), or why a token was refused. */
async function identify(req: IncomingMessage, opts: GuardOptions): Promise<Principal | { refused: string } | null> {
  const owner = ownerService();
  const bearer = bearerOf(req);
  if (bearer !== undefined) {
    const check = await owner.checkToken(bearer);
    return check.ok ? check.principal : { refused: check.message };
  }
  if (!(await opts.passwordSet())) return { kind: "open" };
  const session = readCookie(req.headers.cookie, SESSION_COOKIE);
  return session ? await owner.sessionPrincipal(session) : null;
}
