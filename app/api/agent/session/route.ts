/**
 * GET /api/agent/session?project=NAME — what `trainyard mcp` asks at start: the project's
 * id and what the caller's credentials let the agent tools do (server/mcp/serve-tool.ts).
 */
import { errorResponse } from "@/server/http/error-response";
import { routeCaller } from "@/server/http/route-auth";
import { agentSession, withoutDetails, ZAgentSessionQuery } from "@/server/mcp/serve-tool";

export const dynamic = "force-dynamic";

export async function GET(req: Request): Promise<Response> {
  const caller = routeCaller(req, "read", { viaAgentTools: true });
  if (caller instanceof Response) return caller;
  try {
    const { project } = ZAgentSessionQuery.parse(Object.fromEntries(new URL(req.url).searchParams));
    return Response.json(await agentSession(caller, project), { headers: { "cache-control": "no-store" } });
  } catch (err) {
    return errorResponse(withoutDetails(err), "Starting the agent tools");
  }
}
