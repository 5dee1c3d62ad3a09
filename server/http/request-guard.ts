/**
 * Every request passes here before Next.js sees it: Host check (DNS rebinding), Origin
 * check on mutations (CSRF), then authentication when an owner password is set
 * (session cookie for the browser, bearer token for scripts). The principal it finds
 * is handed to the app in a header that clients cannot set (it is stripped first).
 */
import type { IncomingMessage } from "node:http";
import { ownerService, SESSION_COOKIE } from "@/server/auth/owner.service";
import type { Principal } from "@/server/auth/principal";
import { hostNameOf, originAllowed } from "./allowed-hosts";

export const PRINCIPAL_HEADER = "x-trainyard-principal";
/** The client's socket address, for the login limiter (clients cannot set it either). */
export const CLIENT_HEADER = "x-trainyard-client";

export type GuardResult =
  | { ok: true; principal: Principal }
  | { ok: false; status: number; message: string; redirect?: string };

const PUBLIC_WHEN_LOCKED = [/^\/login(\?|$)/, /^\/api\/auth\/login(\?|$)/, /^\/_next\/static\//, /^\/favicon\.ico$/];
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return decodeURIComponent(v.join("="));
  }
  return undefined;
}

export interface GuardOptions {
  allowedHosts: Set<string>;
  passwordSet: () => Promise<boolean>;
}

export async function guardRequest(req: IncomingMessage, opts: GuardOptions): Promise<GuardResult> {
  delete req.headers[PRINCIPAL_HEADER];
  req.headers[CLIENT_HEADER] = req.socket.remoteAddress ?? "unknown";
  const host = req.headers.host;
  if (!host || !opts.allowedHosts.has(hostNameOf(host))) {
    return { ok: false, status: 421, message: `This Trainyard server does not answer to the name "${host ?? ""}".` };
  }
  const method = req.method ?? "GET";
  const origin = req.headers.origin;
  if (!SAFE_METHODS.has(method)) {
    if (origin !== undefined && !originAllowed(origin, opts.allowedHosts)) {
      return { ok: false, status: 403, message: "Request refused: it came from another site (Origin check)." };
    }
    if (origin === undefined && req.headers["sec-fetch-site"] === "cross-site") {
      return { ok: false, status: 403, message: "Request refused: it came from another site." };
    }
  }

  const owner = ownerService();
  const auth = req.headers.authorization;
  if (auth?.startsWith("Bearer ")) {
    const principal = await owner.tokenPrincipal(auth.slice(7).trim());
    if (!principal) return { ok: false, status: 401, message: "The API token is unknown or revoked." };
    return { ok: true, principal };
  }
  if (!(await opts.passwordSet())) return { ok: true, principal: { kind: "open" } };

  const url = req.url ?? "/";
  const session = readCookie(req.headers.cookie, SESSION_COOKIE);
  const sessionPrincipal = session ? await owner.sessionPrincipal(session) : null;
  if (sessionPrincipal) return { ok: true, principal: sessionPrincipal };
  if (PUBLIC_WHEN_LOCKED.some((re) => re.test(url))) return { ok: true, principal: { kind: "open" } };
  const wantsPage = SAFE_METHODS.has(method) && !url.startsWith("/api/") && url !== "/metrics";
  return {
    ok: false,
    status: 401,
    message: "Sign in with the owner password, or send an API token.",
    redirect: wantsPage ? `/login?next=${encodeURIComponent(url)}` : undefined,
  };
}
