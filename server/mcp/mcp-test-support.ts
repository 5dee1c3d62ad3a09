/**
 * What the MCP integration tests share: the SDK's real Client over stdio spawning the real
 * `trainyard mcp` process, with only the server's address and a token in its environment.
 */
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { REPO } from "@/server/testing/server-harness";

/** The environment the agent's client gives the MCP process: the server's address and a token, nothing of the test's TRAINYARD_*. */
export function agentEnv(url: string, token: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("TRAINYARD_")) env[k] = v;
  return { ...env, TRAINYARD_URL: url, TRAINYARD_TOKEN: token };
}

export interface Agent {
  client: Client;
  stderr: () => string;
  call(name: string, args?: Record<string, unknown>): Promise<{ isError: boolean; data: Record<string, unknown>; text: string }>;
}

export async function connectAgent(url: string, token: string, project: string, extraArgs: string[] = []): Promise<Agent> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(REPO, "bin/trainyard.mjs"), "mcp", "--project", project, ...extraArgs],
    cwd: REPO,
    env: agentEnv(url, token),
    stderr: "pipe",
  });
  let err = "";
  transport.stderr?.on("data", (d: Buffer) => (err += d.toString()));
  const client = new Client({ name: "mcp-integration-test", version: "1.0.0" });
  await client.connect(transport);
  return {
    client,
    stderr: () => err,
    async call(name, args = {}) {
      const r = await client.callTool({ name, arguments: args });
      const content = r.content as { type: string; text: string }[];
      const text = content.map((c) => c.text).join("\n");
      return { isError: Boolean(r.isError), data: (r.structuredContent ?? {}) as Record<string, unknown>, text };
    },
  };
}

/** Every key anywhere in a JSON value. */
export function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => [k, ...keysOf(v)]);
  return [];
}
