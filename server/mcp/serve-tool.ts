/**
 * The agent tools run here, in the server; the `trainyard mcp` process (mcp-server.ts) only
 * forwards each call to the agent tools' route (app/api/agent). A tool reads and acts
 * through the same procedures as every other client, called in-process as the caller's own
 * principal with `viaAgentTools` set (server/api/trpc.ts): an agent-scoped token reaches
 * the data only through a tool, which passes on validation results only and asks the
 * owner's policy before it promotes (promote-tool.ts). What a scope reaches is decided in
 * server/auth/scopes.ts, for this door as for every other.
 */
import type { TRPCClient } from "@trpc/client";
import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { createCaller, type AppRouter } from "@/server/api/root";
import type { Principal } from "@/server/auth/principal";
import { DomainError, isDomainError, notFound as domainNotFound } from "@/server/errors";
import { agentPolicyView } from "@/server/settings/agent-policy";
import { AGENT_TOOLS } from "./agent-tools";
import type { ProjectScope } from "./project-scope";
import type { AgentTool } from "./tool-spec";

type Caller = ReturnType<typeof createCaller>;

/**
 * The in-process caller dressed as the tRPC client the tools are written against:
 * `api.a.b.query(input)` is `caller.a.b(input)`. One shape for the tools whether the API
 * is across a socket or in this process.
 */
function asClient(caller: Caller, path: readonly string[] = []): TRPCClient<AppRouter> {
  const call = (input: unknown) => (path.reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], caller) as (i: unknown) => Promise<unknown>)(input);
  return new Proxy({} as TRPCClient<AppRouter>, {
    get: (_target, key) => {
      if (typeof key !== "string" || key === "then") return undefined;
      if (key === "query" || key === "mutate") return call;
      return asClient(caller, [...path, key]);
    },
  });
}

/** tRPC's refusals that are not a domain's (an input its schema refused, a scope's 403), as the DomainError the route answers. */
const REFUSALS: Partial<Record<TRPCError["code"], DomainError["code"]>> = {
  BAD_REQUEST: "BAD_INPUT",
  UNAUTHORIZED: "UNAUTHORIZED",
  FORBIDDEN: "FORBIDDEN",
  NOT_FOUND: "NOT_FOUND",
  CONFLICT: "CONFLICT",
  TOO_MANY_REQUESTS: "TOO_MANY_REQUESTS",
};

/** A procedure's refusal as the DomainError it was (the tools and the route answer those); anything else stays a bug. */
async function unwrap<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (err) {
    if (!(err instanceof TRPCError)) throw err;
    if (isDomainError(err.cause)) throw err.cause;
    const code = REFUSALS[err.code];
    throw code ? new DomainError(code, err.message) : err;
  }
}

function scopeFor(principal: Principal, project: { id: string; name: string }): ProjectScope {
  return { api: asClient(createCaller({ principal, viaAgentTools: true })), call: unwrap, projectId: project.id, projectName: project.name };
}

export const ZAgentSessionQuery = z.strictObject({ project: z.string().trim().min(1).max(200) });
export const ZAgentToolCall = z.strictObject({ projectId: z.string().min(1).max(100), args: z.record(z.string(), z.unknown()).default({}) });

/** A read tool's call in a query string: `args` is the JSON of the tool's input. */
export const ZAgentToolQuery = z
  .strictObject({ projectId: z.string(), args: z.string().max(16_384).optional() })
  .transform(({ projectId, args }, ctx) => {
    try {
      return { projectId, args: args === undefined ? {} : (JSON.parse(args) as unknown) };
    } catch {
      ctx.addIssue({ code: "custom", path: ["args"], message: "args is not JSON" });
      return z.NEVER;
    }
  });

export interface AgentSession {
  projectId: string;
  projectName: string;
  /** The caller's scope ("owner" for a session or an open server): `trainyard mcp` refuses a wide one unless told. */
  scope: "read-only" | "agent" | "full" | "admin" | "owner";
  mayWrite: boolean;
  mayPromote: boolean;
}

/** What `trainyard mcp` learns at start: the project it serves, and what the caller's credentials let its tools do. */
export async function agentSession(principal: Principal, projectName: string): Promise<AgentSession> {
  const caller = createCaller({ principal, viaAgentTools: true });
  const projects = await unwrap(() => caller.projects.list({ includeArchived: true }));
  const project = projects.find((p) => p.name.toLowerCase() === projectName.toLowerCase());
  if (!project) throw domainNotFound(`No project named "${projectName}".`);
  const policy = await agentPolicyView(principal);
  return {
    projectId: project.id,
    projectName: project.name,
    scope: principal.kind === "token" ? principal.scope : "owner",
    mayWrite: policy.caller.mayWrite,
    mayPromote: policy.caller.mayPromote,
  };
}

export function findAgentTool(name: string): AgentTool {
  const tool = AGENT_TOOLS.find((t) => t.name === name);
  if (!tool) throw domainNotFound(`No agent tool "${name}".`);
  return tool;
}

/**
 * Runs one tool for the caller in the project named by id; a refusal is a DomainError with
 * the words the agent reads. The route has already asked scopes.ts whether the caller may
 * use a tool that writes.
 */
export async function serveAgentTool(principal: Principal, tool: AgentTool, raw: unknown): Promise<Record<string, unknown>> {
  const { projectId, args } = ZAgentToolCall.parse(raw);
  const caller = createCaller({ principal, viaAgentTools: true });
  const project = await unwrap(() => caller.projects.get({ id: projectId }));
  return tool.answer(scopeFor(principal, project), args);
}

/**
 * A refusal as an agent may read it: its words and reason, without the details a procedure
 * attached for the owner's pages (a gate's refusal carries the comparison, test scores included).
 */
export function withoutDetails(err: unknown): unknown {
  return isDomainError(err) ? new DomainError(err.code, err.message, { code: err.reason }) : err;
}
