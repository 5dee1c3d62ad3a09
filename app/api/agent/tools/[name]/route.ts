/**
 * The agent tools' route (server/mcp/serve-tool.ts runs the tool in the server): a tool that
 * only reads is `GET /api/agent/tools/<name>?projectId=…&args=<JSON>`, one that changes
 * something is `POST` with the body `{projectId, args}`, so a read-only token uses the read
 * tools and nothing else, as at every door. Answers the tool's output as JSON, or `{error,
 * code}`. `trainyard mcp` forwards every tool call here; it is the only door an
 * agent-scoped token opens (server/auth/scopes.ts).
 */
import { DomainError } from "@/server/errors";
import { errorResponse } from "@/server/http/error-response";
import { bodyErrorResponse, readJsonBody } from "@/server/http/json-body";
import { routeCaller } from "@/server/http/route-auth";
import { findAgentTool, serveAgentTool, withoutDetails, ZAgentToolQuery } from "@/server/mcp/serve-tool";

export const dynamic = "force-dynamic";

async function answer(req: Request, ctx: { params: Promise<{ name: string }> }, writes: boolean): Promise<Response> {
  const { name } = await ctx.params;
  try {
    const tool = findAgentTool(name);
    if (tool.writes !== writes) {
      const method = tool.writes ? "POST" : "GET";
      return errorResponse(new DomainError("BAD_INPUT", `The tool ${name} is called with ${method}.`, { code: "method_not_allowed" }), `The agent tool ${name}`);
    }
    const caller = routeCaller(req, writes ? "write" : "read", { viaAgentTools: true });
    if (caller instanceof Response) return caller;
    const call = writes ? await readJsonBody(req) : ZAgentToolQuery.parse(Object.fromEntries(new URL(req.url).searchParams));
    const output = await serveAgentTool(caller, tool, call);
    return Response.json(output, { headers: { "cache-control": "no-store" } });
  } catch (err) {
    return bodyErrorResponse(err) ?? errorResponse(withoutDetails(err), `The agent tool ${name}`);
  }
}

export const GET = (req: Request, ctx: { params: Promise<{ name: string }> }) => answer(req, ctx, false);
export const POST = (req: Request, ctx: { params: Promise<{ name: string }> }) => answer(req, ctx, true);
