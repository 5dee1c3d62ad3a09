/**
 * What to do with the body of a request the guard refused. It is never stored. Closing
 * the socket at once would make the kernel answer the client's unread bytes with a reset,
 * and a client still sending (a 200 MiB upload to the wrong route) would then lose the
 * 413 it was sent. So the body is read and dropped for a short while, which costs no
 * memory, and the connection is cut only if it is still coming after that.
 */
import type { IncomingMessage } from "node:http";

export const REFUSED_BODY_LINGER_MS = 2000;

export function hasBody(req: IncomingMessage): boolean {
  return req.headers["transfer-encoding"] !== undefined || (req.headers["content-length"] ?? "0") !== "0";
}

export function discardRefusedBody(req: IncomingMessage, lingerMs = REFUSED_BODY_LINGER_MS): void {
  const timer = setTimeout(() => {
    if (!req.complete) req.socket.destroy();
  }, lingerMs);
  timer.unref();
  req.once("end", () => clearTimeout(timer));
  req.on("error", () => {});
  req.resume();
}
