/**
 * The owner's policy for agent tools (`trainyard mcp`, docs/agents.md): one Setting row
 * ("agents") with a revision, defaults until the owner saves. Only `mayPromote` today:
 * whether the promote_version tool may move an alias. Off by default, and changeable only
 * by the owner (a signed-in session, or the open loopback server before a password is
 * set): an API token — the thing an agent holds — is refused, so an agent cannot grant
 * itself the right to promote.
 */
import { z } from "zod";
import { mayMutate, type Principal } from "@/server/auth/principal";
import type { Db } from "@/server/db/client";
import { parseStoredJson } from "@/server/db/stored-json";
import { conflict, DomainError } from "@/server/errors";
import { settingsRepository } from "./settings.repository";

export const AGENT_POLICY_KEY = "agents";

export const AGENT_POLICY_DEFAULTS = { mayPromote: false } as const;

export const ZAgentPolicyValues = z.strictObject({
  /** promote_version may point an alias at a version the gate allows on its evidence alone. */
  mayPromote: z.boolean(),
});
export type AgentPolicy = z.infer<typeof ZAgentPolicyValues>;

/** Read back leniently: a field an older version saved is dropped, a bad one takes its default. */
const ZStoredAgentPolicy = z.object({ mayPromote: z.boolean().catch(AGENT_POLICY_DEFAULTS.mayPromote) });

export const ZUpdateAgentPolicyInput = z.strictObject({
  values: ZAgentPolicyValues,
  /** The revision the editor read (0: never saved); a stale one is a CONFLICT. */
  revision: z.int().nonnegative(),
});
export type TUpdateAgentPolicyInput = z.infer<typeof ZUpdateAgentPolicyInput>;

export interface AgentPolicyView {
  values: AgentPolicy;
  /** 0 while the owner has never saved (defaults in force). */
  revision: number;
  defaults: AgentPolicy;
  /** What the policy lets the caller's own credentials do as an agent. */
  caller: { mayWrite: boolean; mayPromote: boolean };
}

/** Where the owner changes the policy, in the words a refusal gives an agent. */
export const ENABLE_PROMOTE_WORDS =
  'The owner enables it in Settings → Agents ("Agents may promote model versions"), signed in with the owner password; an API token cannot change it.';

export async function agentPolicy(db?: Db): Promise<{ values: AgentPolicy; revision: number }> {
  const row = await settingsRepository(db).find(AGENT_POLICY_KEY);
  const stored = parseStoredJson(ZStoredAgentPolicy, row?.value ?? "{}");
  return { values: stored ?? { ...AGENT_POLICY_DEFAULTS }, revision: row?.revision ?? 0 };
}

export async function agentPolicyView(principal: Principal, db?: Db): Promise<AgentPolicyView> {
  const { values, revision } = await agentPolicy(db);
  const mayWrite = mayMutate(principal);
  return { values, revision, defaults: { ...AGENT_POLICY_DEFAULTS }, caller: { mayWrite, mayPromote: mayWrite && values.mayPromote } };
}

export async function updateAgentPolicy(raw: TUpdateAgentPolicyInput, principal: Principal, db?: Db): Promise<AgentPolicyView> {
  if (principal.kind === "token") {
    throw new DomainError("FORBIDDEN", `Only the owner can change what agents may do; an API token (here "${principal.name}") cannot. Sign in to Settings → Agents with the owner password.`, {
      code: "owner_only",
    });
  }
  const input = ZUpdateAgentPolicyInput.parse(raw);
  const repo = settingsRepository(db);
  const value = JSON.stringify(input.values);
  const stale = async () => {
    const now = await agentPolicy(db);
    return conflict(`The agents' policy was changed elsewhere (revision ${now.revision}, you had ${input.revision}). Reload and try again.`, {
      code: "stale_revision",
      currentRevision: now.revision,
    });
  };
  if (input.revision === 0) {
    try {
      await repo.create(AGENT_POLICY_KEY, value);
    } catch (err) {
      // Someone saved first: the unique key lets one creation in.
      if ((err as { code?: string }).code === "P2002") throw await stale();
      throw err;
    }
  } else if ((await repo.updateAtRevision(AGENT_POLICY_KEY, input.revision, value)) === 0) {
    throw await stale();
  }
  return agentPolicyView(principal, db);
}
