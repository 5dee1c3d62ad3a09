/**
 * The names this server answers to. A request whose Host header is anything else is
 * refused: that is how a DNS-rebinding page on another site would reach a loopback
 * server. Mutations must also come from one of these origins (CSRF).
 */
import os from "node:os";

export const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]", "::1"];

export function isLoopbackHost(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127\./.test(host);
}

function bracket(host: string): string {
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}

export function allowedHostNames(boundHost: string, extra: string[] = []): Set<string> {
  const names = new Set<string>([...LOOPBACK_NAMES, bracket(boundHost), ...extra]);
  if (boundHost === "0.0.0.0" || boundHost === "::") {
    names.add(os.hostname());
    for (const addrs of Object.values(os.networkInterfaces())) {
      for (const a of addrs ?? []) names.add(bracket(a.address));
    }
  }
  return names;
}

/** Splits "name:port" / "[v6]:port" into the name part, lower-cased. */
export function hostNameOf(hostHeader: string): string {
  const h = hostHeader.trim().toLowerCase();
  if (h.startsWith("[")) return h.slice(0, h.indexOf("]") + 1);
  const colon = h.lastIndexOf(":");
  return colon === -1 ? h : h.slice(0, colon);
}

/**
 * The exact origins a browser shows for this server: every name it answers to, with the
 * scheme and port it listens on, plus the public origin behind a reverse proxy. Another
 * port on localhost is another site.
 */
export function ownOrigins(names: Set<string>, port: number, publicOrigin?: string): Set<string> {
  const origins = new Set<string>();
  for (const name of names) {
    try {
      origins.add(new URL(`http://${bracket(name)}:${port}`).origin);
    } catch {
      // a name that is not a valid URL host cannot be an origin either
    }
  }
  if (publicOrigin) origins.add(new URL(publicOrigin).origin);
  return origins;
}
