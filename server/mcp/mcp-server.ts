/**
 * The MCP server of `trainyard mcp` (@modelcontextprotocol/sdk): the agent tools bound to
 * one project, each published with its zod input schema as JSON Schema and its output
 * shape. The tools run in the Trainyard server (serve-tool.ts); this process forwards each
 * call there and answers the output as structured content (and the same JSON as text, for
 * clients that read only text). A token that may not write is offered the read tools only.
 * A refusal (not found, unreachable server, a policy that does not allow it) is a tool
 * error with the reason, not a protocol error.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { VERSION } from "@/server/lifecycle/server-info";
import { AGENT_TOOLS } from "./agent-tools";

/** Sends one tool call to the server and returns its output; throws an Error whose message is the server's refusal. */
export type ForwardTool = (name: string, args: Record<string, unknown>) => Promise<Record<string, unknown>>;

export function trainyardMcpServer(forward: ForwardTool, access: { mayWrite: boolean }): McpServer {
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
        // Parsed here too: a field that is not in the shape never reaches an agent, whatever answered.
        const output = tool.output.parse(await forward(tool.name, (args ?? {}) as Record<string, unknown>)) as Record<string, unknown>;
        return { content: [{ type: "text" as const, text: JSON.stringify(output) }], structuredContent: output };
      },
    );
  }
  return server;
}
