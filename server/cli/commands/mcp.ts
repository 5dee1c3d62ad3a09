/**
 * `trainyard mcp --project NAME`: the agent tools (server/mcp) over stdio, for Claude Code
 * or any MCP client, talking to the running server with TRAINYARD_URL / TRAINYARD_TOKEN
 * like every other command. The tools run in the server (its agent tools' route); this
 * process forwards each call. Stdout carries the protocol and nothing else; messages go to
 * stderr. Runs until the client closes stdin.
 *
 * It refuses credentials wider than an agent needs (a full or admin token, or an open
 * server's owner rights) unless told `--allow-full-token`: the agent scope is what an agent
 * should hold (docs/agents.md).
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { AgentSession } from "@/server/mcp/serve-tool";
import { AGENT_TOOLS } from "@/server/mcp/agent-tools";
import { trainyardMcpServer } from "@/server/mcp/mcp-server";
import { CliError } from "../cli-error";
import { connect, timedFetch, withRetry, type Connection } from "../api-client";
import { parseSubcommand } from "../subcommand-args";
import { jsonAnswer } from "@/server/cli/json-answer";

/** A tool call waits this long for a server that stopped answering, then says so. */
const CALL_PATIENCE_MS = 15_000;

const USAGE = "Usage: trainyard mcp --project NAME [--allow-full-token]   (TRAINYARD_URL, TRAINYARD_TOKEN: the server and an API token with the agent scope)";

/** Credentials that reach more than the agent tools. */
const WIDE = new Set<AgentSession["scope"]>(["full", "admin", "owner"]);

function parseArgs(argv: string[]): { project: string; allowFullToken: boolean } {
  // parseSubcommand reads a verb first: there is none, so give it an empty one.
  const { values, positionals } = parseSubcommand(["", ...argv], { "allow-full-token": { type: "boolean", default: false } });
  if (positionals.length || values.json) throw new CliError(USAGE, 2);
  return { project: values.project, allowFullToken: values["allow-full-token"] };
}

/** One request to the agent tools' routes (a body: POST); a refusal is a CliError with the server's words. */
async function agentRequest<T>(conn: Connection, path: string, body?: unknown): Promise<T> {
  const res = await timedFetch(`${conn.url}${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { ...conn.headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await jsonAnswer<{ error?: string; code?: string }>(res);
  if (res.ok) return answer as T;
  if (res.status === 401) throw new CliError(`${answer.error ?? ""} The server needs a valid API token: set TRAINYARD_TOKEN (create one with \`trainyard token create NAME --scope agent\`).`.trim(), 1, "unauthorized");
  // 502/503 read as unreachable to withRetry (a restart in progress).
  throw new CliError(answer.error ?? `The server answered ${res.status}.`, 1, res.status >= 502 ? `${res.status}` : (answer.code ?? "server_error"));
}

export async function mcpCommand(argv: string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    console.log(`${USAGE}\n\nStarts an MCP server over stdio for one project; see docs/agents.md for the tools, the token to give an agent, and a client config.`);
    return 0;
  }
  const { project, allowFullToken } = parseArgs(argv);
  // Anything a module prints with console.log would corrupt the protocol on stdout.
  console.log = console.error;
  const conn = connect();
  const call = <T>(request: () => Promise<T>) => withRetry(request, { patienceMs: CALL_PATIENCE_MS });
  const session = await call(() => agentRequest<AgentSession>(conn, `/api/agent/session?project=${encodeURIComponent(project)}`));
  if (WIDE.has(session.scope) && !allowFullToken) {
    const what = session.scope === "owner" ? "the server has no owner password, so the agent would act as the owner" : `the token has the ${session.scope} scope: it can do what the owner can`;
    throw new CliError(
      `trainyard mcp refuses to start: ${what}. Give the agent a token with the agent scope (\`trainyard token create NAME --scope agent\`), or start it with --allow-full-token if you mean it.`,
      2,
    );
  }
  const writes = new Set(AGENT_TOOLS.filter((t) => t.writes).map((t) => t.name));
  const forward = (name: string, args: Record<string, unknown>) => {
    const path = `/api/agent/tools/${encodeURIComponent(name)}`;
    // A read tool is a GET (a read-only token may use it); one that changes something a POST.
    return writes.has(name)
      ? call(() => agentRequest<Record<string, unknown>>(conn, path, { projectId: session.projectId, args }))
      : call(() => agentRequest<Record<string, unknown>>(conn, `${path}?${new URLSearchParams({ projectId: session.projectId, args: JSON.stringify(args) })}`));
  };
  const server = trainyardMcpServer(forward, { mayWrite: session.mayWrite });
  const transport = new StdioServerTransport();
  await server.connect(transport);
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve;
    process.stdin.once("end", resolve);
  });
  console.error(`trainyard mcp: serving project "${session.projectName}" from ${conn.url} (${session.scope === "owner" ? "owner rights" : `${session.scope} token`}${session.mayWrite ? "" : ": read tools only"})`);
  await closed;
  await server.close();
  return 0;
}
