/**
 * What an API token reaches, decided here and nowhere else. Every door asks `refusal()`:
 * the request guard (any HTTP request), the tRPC middleware (each procedure, including the
 * calls an agent tool makes on the server) and the route handlers (route-auth.ts). A
 * scope is a row of capabilities, so "wider than" is a comparison of rows, not a ranking
 * someone keeps in their head.
 */
import { z } from "zod";

export const TOKEN_SCOPES = ["read-only", "agent", "full", "admin"] as const;
export const ZTokenScope = z.enum(TOKEN_SCOPES);
export type TokenScope = z.infer<typeof ZTokenScope>;

interface Capabilities {
  /** May change something (mutations, POST routes). */
  write: boolean;
  /** May reach more than the agent tools (every other procedure and route). */
  everything: boolean;
  /** May manage the owner's credentials: create and revoke tokens, end sessions. */
  credentials: boolean;
}

const CAPABILITIES: Readonly<Record<TokenScope, Capabilities>> = {
  "read-only": { write: false, everything: true, credentials: false },
  agent: { write: true, everything: false, credentials: false },
  full: { write: true, everything: true, credentials: false },
  admin: { write: true, everything: true, credentials: true },
};

/** One line per scope, for `token create --help`, Settings and docs/security.md. */
export const SCOPE_WORDS: Readonly<Record<TokenScope, string>> = {
  "read-only": "reads everything the owner can see (test scores included); changes nothing",
  agent: "the agent tools only (trainyard mcp): validation results, proposals to searches, and promotion only when Settings → Agents allows it",
  full: "everything the owner can do through the API and the CLI, except managing tokens and sessions",
  admin: "everything, including creating tokens (never wider or longer-lived than its own) and ending sessions",
};

/** What one request asks for, as its door describes it. */
export interface Request {
  write: boolean;
  /** The owner's credentials (tokens, sessions). */
  credentials?: boolean;
  /** Through the agent tools: their route, or a call a tool makes on the server. */
  viaAgentTools?: boolean;
}

export interface Refusal {
  code: "read_only_token" | "agent_token" | "owner_credentials";
  message: string;
}

/** Why a token of `scope` may not make this request, or null when it may. */
export function scopeRefusal(scope: TokenScope, name: string, req: Request): Refusal | null {
  const can = CAPABILITIES[scope];
  if (!can.everything && !req.viaAgentTools) {
    return { code: "agent_token", message: `The API token "${name}" has the agent scope: it reaches the agent tools only (trainyard mcp, docs/agents.md).` };
  }
  if (req.write && !can.write) return { code: "read_only_token", message: `The API token "${name}" is read-only.` };
  if (req.credentials && !can.credentials) {
    return {
      code: "owner_credentials",
      message: "This API token cannot manage sessions or tokens: sign in with the owner password, use `trainyard token` on the server's machine, or a token with the admin scope.",
    };
  }
  return null;
}

export const mayWrite = (scope: TokenScope): boolean => CAPABILITIES[scope].write;

/** True when `child` can do nothing that `parent` cannot: the rule for a token that mints another. */
export function withinScope(child: TokenScope, parent: TokenScope): boolean {
  const c = CAPABILITIES[child];
  const p = CAPABILITIES[parent];
  return (Object.keys(c) as (keyof Capabilities)[]).every((k) => !c[k] || p[k]);
}
