/**
 * The browser's session cookie: HttpOnly (scripts cannot read it), SameSite=Strict (other
 * sites cannot send it), and Secure when the server is reached over https.
 */
import { loadConfig, type AppConfig } from "@/server/config/env";

export const SESSION_COOKIE = "trainyard_session";

/**
 * True when the public origin (TRAINYARD_PUBLIC_ORIGIN, e.g. behind a TLS proxy) is https,
 * so browsers send the cookie over TLS only. A plain-http loopback server cannot set it:
 * browsers would then never send the cookie back.
 */
export function cookieSecure(config: Pick<AppConfig, "publicOrigin"> = loadConfig()): boolean {
  return config.publicOrigin?.startsWith("https:") ?? false;
}

function attributes(secure: boolean): string[] {
  return ["Path=/", "HttpOnly", "SameSite=Strict", ...(secure ? ["Secure"] : [])];
}

export function sessionCookie(secret: string, expiresAt: Date, opts: { secure: boolean }): string {
  return [`${SESSION_COOKIE}=${encodeURIComponent(secret)}`, ...attributes(opts.secure), `Expires=${expiresAt.toUTCString()}`].join("; ");
}

/** The Set-Cookie value that makes the browser drop its session cookie. */
export function clearedSessionCookie(opts: { secure: boolean }): string {
  return [`${SESSION_COOKIE}=`, ...attributes(opts.secure), "Max-Age=0"].join("; ");
}
