/**
 * The browser's session cookie: HttpOnly (scripts cannot read it), SameSite=Strict (other
 * sites cannot send it), and Secure when the server is reached over https.
 */
export const SESSION_COOKIE = "trainyard_session";

/**
 * True when the public origin is https, so browsers must send the cookie over TLS only.
 * The lead's config module (server/config/env.ts, TRAINYARD_PUBLIC_ORIGIN) is the place
 * to read this from once it has `publicOrigin`; until then this one accessor reads it.
 */
export function cookieSecure(): boolean {
  return process.env.TRAINYARD_PUBLIC_ORIGIN?.startsWith("https:") ?? false;
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
