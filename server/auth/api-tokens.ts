/**
 * API tokens for scripts: a random secret shown once, its SHA-256 stored. A token may
 * expire (expiresAt) and may be read-only (queries only; mayMutate in principal.ts).
 */
import { badInput, notFound } from "@/server/errors";
import type { AuthRepository } from "./auth.repository";
import { parseDuration } from "./duration";
import type { Principal } from "./principal";
import { hashSecret, newSecret, sameHash } from "./secret-token";

export interface TokenView {
  id: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  expiresAt: Date | null;
  readOnly: boolean;
  state: "active" | "revoked" | "expired";
}

export interface CreateTokenOptions {
  /** How long the token lives, as typed: 12h, 30d, 2w (duration.ts); undefined: until revoked. */
  expires?: string;
  readOnly?: boolean;
}

export type TokenCheck = { ok: true; principal: Principal } | { ok: false; message: string };

const tokenState = (t: { revokedAt: Date | null; expiresAt: Date | null }, now: Date): TokenView["state"] =>
  t.revokedAt ? "revoked" : t.expiresAt && t.expiresAt <= now ? "expired" : "active";

export function apiTokenService(repo: AuthRepository) {
  return {
    async createToken(name: string, opts: CreateTokenOptions = {}): Promise<{ id: string; token: string; expiresAt: Date | null }> {
      const clean = name.trim();
      if (!clean || clean.length > 100) throw badInput("A token needs a name of 1 to 100 characters.");
      const token = newSecret("tyt");
      const expiresAt = opts.expires === undefined ? null : new Date(Date.now() + parseDuration(opts.expires));
      const row = await repo.createToken({
        name: clean,
        prefix: token.slice(0, 10),
        tokenHash: hashSecret(token),
        expiresAt,
        readOnly: opts.readOnly ?? false,
      });
      return { id: row.id, token, expiresAt };
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
        readOnly: t.readOnly,
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
      await repo.touchToken(row.id);
      return { ok: true, principal: { kind: "token", tokenId: row.id, name: row.name, readOnly: row.readOnly } };
    },
  };
}
