/**
 * The MCP server of `trainyard mcp` (@modelcontextprotocol/sdk): the agent tools bound to
 * one project, each published with its zod input schema as JSON Schema and its output
 * shape, answering with the parsed output as structured content (and the same JSON as
 * text, for clients that read only text). A token that may not write (read-only) is
 * offered the read tools only. A refusal (not found, unreachable server, a policy that
 * does not allow it) is a tool error with the reason, not a protocol error.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { VERSION } from "@/server/lifecycle/server-info";
import type { ProjectScope } from "./project-scope";
import { READ_TOOLS } from "./read-tools";
import { SEARCH_TOOLS } from "./search-tools";

export const AGENT_TOOLS = [...READ_TOOLS, ...SEARCH_TOOLS];

export function trainyardMcpServer(scope: ProjectScope, access: { mayWrite: boolean }): McpServer {
  const server = new McpServer({ name: "trainyard", version: VERSION });
  for (const tool of AGENT_TOOLS) {
    if (tool.writes && !access.mayWrite) continue;
    server.registerTool(
      tool.name,
      {
        // Fixed words only: a tool's description is text the agent trusts, and a project's name
        // is the user's data (a name can be written as an instruction). Names reach the agent in
        // results, as data.
        description: tool.description,
        inputSchema: tool.input,
        outputSchema: tool.output,
        annotations: { readOnlyHint: !tool.writes, destructiveHint: false, openWorldHint: false },
      },
      async (args: unknown) => {
        const output = await tool.answer(scope, args);
        return { content: [{ type: "text" as const, text: JSON.stringify(output) }], structuredContent: output };
      },
    );
  }
  return server;
}
