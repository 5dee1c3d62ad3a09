/**
 * API tokens for scripts: a random secret shown once, its SHA-256 stored. A token may
 * expire (expiresAt) and has a scope (scopes.ts). A token minted by another (an admin-
 * scoped one) is never wider nor longer-lived than its parent, and ends with it.
 */
import { badInput, DomainError, notFound } from "@/server/errors";
import type { AuthRepository } from "./auth.repository";
import { parseDuration } from "./duration";
import type { Principal } from "./principal";
import { withinScope, ZTokenScope, type TokenScope } from "./scopes";
import { hashSecret, newSecret, sameHash } from "./secret-token";

export interface TokenView {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  expiresAt: Date | null;
  scope: TokenScope;
  /** The token that minted this one, when one did. */
  parentId: string | null;
  state: "active" | "revoked" | "expired";
}

export interface CreateTokenOptions {
  /** How long the token lives, as typed: 12h, 30d, 2w (duration.ts); undefined: until revoked. */
  expires?: string;
  scope?: TokenScope;
}

/** Who asks for the token: the owner (a session, the CLI on the machine) or a token minting one. */
export type Minter = { kind: "owner" } | { kind: "token"; tokenId: string; name: string; scope: TokenScope };

export type TokenCheck = { ok: true; principal: Principal } | { ok: false; message: string };

const tokenState = (t: { revokedAt: Date | null; expiresAt: Date | null }, now: Date): TokenView["state"] =>
  t.revokedAt ? "revoked" : t.expiresAt && t.expiresAt <= now ? "expired" : "active";

/** A stored scope; a value this version does not know reaches nothing more than read-only. */
const scopeOf = (stored: string): TokenScope => ZTokenScope.catch("read-only").parse(stored);

/** How many minting generations are followed before a chain counts as ended (admin tokens minting admin tokens). */
const MAX_CHAIN = 16;

/** The name of the first revoked or expired token up the chain that minted this one, or null. */
async function endedAncestor(repo: AuthRepository, parentId: string | null): Promise<string | null> {
  const now = new Date();
  for (let id = parentId, depth = 0; id !== null; depth++) {
    const parent = await repo.findTokenById(id);
    if (!parent || depth >= MAX_CHAIN) return parent?.name ?? id;
    if (tokenState(parent, now) !== "active") return parent.name;
    id = parent.parentId;
  }
  return null;
}

export function apiTokenService(repo: AuthRepository) {
  return {
    async createToken(
      name: string,
      opts: CreateTokenOptions = {},
      minter: Minter = { kind: "owner" },
    ): Promise<{ id: string; token: string; expiresAt: Date | null; scope: TokenScope }> {
      const clean = name.trim();
      if (!clean || clean.length > 100) throw badInput("A token needs a name of 1 to 100 characters.");
      const scope = opts.scope ?? "full";
      let expiresAt = opts.expires === undefined ? null : new Date(Date.now() + parseDuration(opts.expires));
      let parentId: string | null = null;
      if (minter.kind === "token") {
        const parent = await repo.findTokenById(minter.tokenId);
        if (!parent || !withinScope(scope, minter.scope)) {
          throw new DomainError("FORBIDDEN", `The token "${minter.name}" (scope ${minter.scope}) cannot mint a token with the wider scope "${scope}".`, { code: "wider_scope" });
        }
        if (parent.expiresAt) {
          if (expiresAt && expiresAt > parent.expiresAt) {
            throw new DomainError("FORBIDDEN", `The token "${minter.name}" expires on ${parent.expiresAt.toISOString()}; a token it mints cannot live longer.`, { code: "longer_life" });
          }
          expiresAt ??= parent.expiresAt;
        }
        parentId = parent.id;
      }
      const token = newSecret("tyt");
      const row = await repo.createToken({ name: clean, prefix: token.slice(0, 10), tokenHash: hashSecret(token), expiresAt, scope, parentId });
      return { id: row.id, token, expiresAt, scope };
    },

    async listTokens(): Promise<TokenView[]> {
      const now = new Date();
      return (await repo.listTokens()).map((t) => ({
        id: t.id,
        name: t.name,
        prefix: t.prefix,
        createdAt: t.createdAt,
        lastUsedAt: t.lastUsedAt,
        revokedAt: t.revokedAt,
        expiresAt: t.expiresAt,
        scope: scopeOf(t.scope),
        parentId: t.parentId,
        state: tokenState(t, now),
      }));
    },

    async revokeToken(idOrPrefix: string): Promise<boolean> {
      return (await repo.revokeToken(idOrPrefix)).count > 0;
    },

    /** Revokes by id (Settings); NOT_FOUND when no active token has it. */
    async revokeTokenById(id: string): Promise<void> {
      if ((await repo.revokeTokenById(id)).count === 0) throw notFound(`No active token ${id}; it may be revoked already.`);
    },

    /** The principal for a usable token, or the reason it is refused (for the 401's message). */
    async checkToken(token: string): Promise<TokenCheck> {
      const hash = hashSecret(token);
      const row = await repo.findToken(hash);
      if (!row || !sameHash(row.tokenHash, hash)) return { ok: false, message: "The API token is unknown." };
      const state = tokenState(row, new Date());
      if (state === "revoked") return { ok: false, message: `The API token "${row.name}" was revoked.` };
      if (state === "expired") {
        return {
          ok: false,
          message: `The API token "${row.name}" expired on ${row.expiresAt!.toISOString()}; create a new one with "trainyard token create".`,
        };
      }
      const endedParent = await endedAncestor(repo, row.parentId);
      if (endedParent) return { ok: false, message: `The API token "${row.name}" was minted by the token "${endedParent}", which was revoked or expired; it ended with it.` };
      await repo.touchToken(row.id);
      return { ok: true, principal: { kind: "token", tokenId: row.id, name: row.name, scope: scopeOf(row.scope) } };
    },
  };
}
