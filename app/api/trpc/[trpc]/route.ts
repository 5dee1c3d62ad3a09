import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { appRouter } from "@/server/api/root";
import { createContext } from "@/server/api/trpc";
import { TRPC_MAX_BATCH } from "@/contracts/api-limits";
import { bodyErrorResponse, readTextBody } from "@/server/http/json-body";

export const dynamic = "force-dynamic";

// The body is read once, capped while reading (the guard also refuses a large
// Content-Length before this runs); tRPC then parses the bounded copy. A batch holds at
// most TRPC_MAX_BATCH calls (400 beyond), so one request cannot ask for unbounded work.
async function handler(req: Request): Promise<Response> {
  let request = req;
  if (req.method !== "GET" && req.method !== "HEAD") {
    try {
      request = new Request(req.url, { method: req.method, headers: req.headers, body: await readTextBody(req), signal: req.signal });
    } catch (err) {
      const refused = bodyErrorResponse(err);
      if (refused) return refused;
      throw err;
    }
  }
  return fetchRequestHandler({ endpoint: "/api/trpc", req: request, router: appRouter, createContext: () => createContext(request), maxBatchSize: TRPC_MAX_BATCH });
}

export { handler as GET, handler as POST };
