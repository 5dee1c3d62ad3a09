/**
 * `trainyard mcp --project NAME`: the agent tools (server/mcp) over stdio, for Claude Code
 * or any MCP client, talking to the running server with TRAINYARD_URL / TRAINYARD_TOKEN
 * like every other command. Stdout carries the protocol and nothing else; messages go to
 * stderr. Runs until the client closes stdin.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { trainyardMcpServer } from "@/server/mcp/mcp-server";
import { CliError } from "../cli-error";
import { connect, withRetry } from "../api-client";
import { parseSubcommand } from "../subcommand-args";
import { projectId } from "./experiments";

/** A tool call waits this long for a server that stopped answering, then says so. */
const CALL_PATIENCE_MS = 15_000;

const USAGE = "Usage: trainyard mcp --project NAME   (TRAINYARD_URL, TRAINYARD_TOKEN: the server and an API token)";

export async function mcpCommand(argv: string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    console.log(`${USAGE}\n\nStarts an MCP server over stdio for one project; see docs/agents.md for the tools and a client config.`);
    return 0;
  }
  // parseSubcommand reads a verb first: there is none, so give it an empty one.
  const { values, positionals } = parseSubcommand(["", ...argv], {});
  if (positionals.length || values.json) throw new CliError(USAGE, 2);
  // Anything a module prints with console.log would corrupt the protocol on stdout.
  console.log = console.error;
  const conn = connect();
  const projectName = values.project!;
  const scope = {
    api: conn.api,
    call: <T>(request: () => Promise<T>) => withRetry(request, { patienceMs: CALL_PATIENCE_MS }),
    projectId: await projectId(conn, projectName),
    projectName,
  };
  // A read-only token is offered the read tools only (the server would refuse the others anyway).
  const policy = await scope.call(() => conn.api.settings.agents.query());
  const server = trainyardMcpServer(scope, { mayWrite: policy.caller.mayWrite });
  const transport = new StdioServerTransport();
  await server.connect(transport);
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve;
    process.stdin.once("end", resolve);
  });
  console.error(`trainyard mcp: serving project "${projectName}" from ${conn.url}${policy.caller.mayWrite ? "" : " (read-only token: read tools only)"}`);
  await closed;
  await server.close();
  return 0;
}
