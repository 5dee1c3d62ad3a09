/**
 * How the request guard tells the app who is calling, in a way a client cannot forge and
 * that fails closed when the guard did not run. The guard (same process as Next.js)
 * strips any incoming marker and sets `<nonce>.<principal JSON>`; the nonce is a random
 * per-process secret. `next start` or `next dev` run without the guard never set it, so
 * every request there reads as unauthenticated.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { ZPrincipal, type Principal } from "@/server/auth/principal";

export const PRINCIPAL_HEADER = "x-trainyard-principal";
/** The client's address as the guard determined it (socket, or a trusted proxy's X-Forwarded-For). */
export const CLIENT_HEADER = "x-trainyard-client";

const KEY = Symbol.for("trainyard.guardNonce");

function processNonce(): Buffer {
  const g = globalThis as { [KEY]?: Buffer };
  return (g[KEY] ??= randomBytes(32));
}

export function principalMarker(principal: Principal): string {
  return `${processNonce().toString("hex")}.${Buffer.from(JSON.stringify(principal)).toString("base64url")}`;
}

/** The principal the guard vouched for, or null (no marker, a forged one, or a bad shape). */
export function readPrincipalMarker(value: string | null | undefined): Principal | null {
  if (!value) return null;
  const dot = value.indexOf(".");
  if (dot !== 64) return null;
  const nonce = Buffer.from(value.slice(0, dot), "hex");
  const expected = processNonce();
  if (nonce.length !== expected.length || !timingSafeEqual(nonce, expected)) return null;
  try {
    const parsed = ZPrincipal.safeParse(JSON.parse(Buffer.from(value.slice(dot + 1), "base64url").toString("utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
