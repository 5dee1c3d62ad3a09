/**
 * How the request guard tells the app who is calling, in a way a client cannot forge and
 * that fails closed when the guard did not run. The guard (same process as Next.js)
 * strips any incoming marker and sets `<nonce>.<principal JSON>`; the nonce is a random
 * per-process secret. `next start` or `next dev` run without the guard never set it, so
 * every request there reads as unauthenticated.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { ZPrincipal, type Principal } from "@/server/auth/principal";

export const PRINCIPAL_HEADER = "x-trainyard-principal";
/** The client's address as the guard determined it (socket, or a trusted proxy's X-Forwarded-For). */
export const CLIENT_HEADER = "x-trainyard-client";

const KEY = Symbol.for("trainyard.guardNonce");

function processNonce(): Buffer {
  const g = globalThis as { [KEY]?: Buffer };
  return (g[KEY] ??= randomBytes(32));
}

/** `<nonce>.<base64url JSON>`: only this process can write one that readMarker accepts. */
function marker(value: unknown): string {
  return `${processNonce().toString("hex")}.${Buffer.from(JSON.stringify(value)).toString("base64url")}`;
}

function readMarker(value: string | null | undefined): unknown {
  if (!value) return null;
  const dot = value.indexOf(".");
  if (dot !== 64) return null;
  const nonce = Buffer.from(value.slice(0, dot), "hex");
  const expected = processNonce();
  if (nonce.length !== expected.length || !timingSafeEqual(nonce, expected)) return null;
  try {
    return JSON.parse(Buffer.from(value.slice(dot + 1), "base64url").toString("utf8")) as unknown;
  } catch {
    return null;
  }
}

export function principalMarker(principal: Principal): string {
  return marker(principal);
}

/** The principal the guard vouched for, or null (no marker, a forged one, or a bad shape). */
export function readPrincipalMarker(value: string | null | undefined): Principal | null {
  const parsed = ZPrincipal.safeParse(readMarker(value));
  return parsed.success ? parsed.data : null;
}

/**
 * A deployment key the guard checked: valid for `deploymentId` only, and let through only
 * to that deployment's public routes. It is not a principal, so every other route (and
 * tRPC) reads the request as anonymous even if the guard's path check were bypassed.
 */
export const DEPLOYMENT_KEY_HEADER = "x-trainyard-deployment-key";
export const ZDeploymentKeyGrant = z.strictObject({ deploymentId: z.string().min(1), keyId: z.string().min(1) });
export type DeploymentKeyGrant = z.infer<typeof ZDeploymentKeyGrant>;

export function deploymentKeyMarker(grant: DeploymentKeyGrant): string {
  return marker(grant);
}

export function readDeploymentKeyMarker(value: string | null | undefined): DeploymentKeyGrant | null {
  const parsed = ZDeploymentKeyGrant.safeParse(readMarker(value));
  return parsed.success ? parsed.data : null;
}
