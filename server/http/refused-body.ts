/**
 * What to do with the body of a request that was refused, by the guard or by a route that
 * answered before reading it all (start-server.ts). It is never stored. Closing
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

/**
 * The body of a request the app answered before reading it all. The app's reader (Next's
 * web stream over the request) still holds it paused for want of a consumer, so it is let
 * go first: after the answer, nothing may use the body.
 */
export function discardUnreadBody(req: IncomingMessage, lingerMs = REFUSED_BODY_LINGER_MS): void {
  // A 'readable' listener keeps the stream out of flowing mode, whatever resume() asks.
  req.removeAllListeners("readable");
  req.removeAllListeners("data");
  discardRefusedBody(req, lingerMs);
}
