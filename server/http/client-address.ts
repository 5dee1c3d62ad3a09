/**
 * The caller's address for rate limits and logs. `X-Forwarded-For` is anyone's to write,
 * so it counts only when the connection comes from the one proxy the owner named
 * (TRAINYARD_TRUSTED_PROXY); then the last entry is the address that proxy saw.
 */
import net from "node:net";

function plain(address: string): string {
  return address.startsWith("::ffff:") && net.isIPv4(address.slice(7)) ? address.slice(7) : address;
}

export function clientAddress(socketAddress: string | undefined, forwardedFor: string | string[] | undefined, trustedProxy: string | undefined): string {
  const socket = plain(socketAddress ?? "unknown");
  if (!trustedProxy || socket !== plain(trustedProxy) || forwardedFor === undefined) return socket;
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(",") : forwardedFor;
  const last = header.split(",").map((s) => s.trim()).filter(Boolean).pop();
  return last && net.isIP(plain(last)) ? plain(last) : socket;
}
