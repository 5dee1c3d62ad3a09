import { ownerService } from "@/server/auth/owner.service";
import type { TokenView } from "@/server/auth/api-tokens";
import { SCOPE_WORDS, TOKEN_SCOPES, ZTokenScope, type TokenScope } from "@/server/auth/scopes";
import { isDomainError } from "@/server/errors";
import { CliError } from "../cli-error";
import { withLocalDb } from "../local-db";

export const USAGE = `Usage: trainyard token create NAME [--scope ${TOKEN_SCOPES.join("|")}] [--expires 30d] | list | revoke ID|PREFIX`;

interface CreateArgs {
  name: string;
  expires?: string;
  scope: TokenScope;
}

/** Each scope and what it reaches, for the usage text. */
const SCOPE_HELP = TOKEN_SCOPES.map((scope) => `  ${scope.padEnd(10)} ${SCOPE_WORDS[scope]}`).join("\n");

function parseScope(value: string | undefined): TokenScope {
  const parsed = ZTokenScope.safeParse(value);
  if (!parsed.success) throw new CliError(`--scope takes one of ${TOKEN_SCOPES.join(", ")} (got "${value ?? ""}"):\n${SCOPE_HELP}`, 2);
  return parsed.data;
}

function parseCreateArgs(args: string[]): CreateArgs {
  let name: string | undefined;
  let expires: string | undefined;
  let scope: TokenScope | undefined;
  const setScope = (s: TokenScope) => {
    if (scope !== undefined && scope !== s) throw new CliError(`One scope only (got ${scope} and ${s}).`, 2);
    scope = s;
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    // --read-only: the older spelling of --scope read-only.
    if (arg === "--read-only") setScope("read-only");
    else if (arg === "--scope" || arg.startsWith("--scope=")) setScope(parseScope(arg === "--scope" ? args[++i] : arg.slice("--scope=".length)));
    else if (arg === "--expires" || arg.startsWith("--expires=")) {
      expires = arg === "--expires" ? args[++i] : arg.slice("--expires=".length);
      if (!expires) throw new CliError("--expires needs a duration, e.g. --expires 30d (h: hours, d: days, w: weeks).", 2);
    } else if (arg.startsWith("--")) throw new CliError(`Unknown option ${arg}. ${USAGE}`, 2);
    else if (name === undefined) name = arg;
    else throw new CliError(`One name only (got "${name}" and "${arg}"); quote a name with spaces. ${USAGE}`, 2);
  }
  if (!name) throw new CliError(USAGE, 2);
  return { name, expires, scope: scope ?? "full" };
}

function describeToken(t: TokenView): string {
  const scope = t.scope;
  const state = t.state === "revoked" ? `revoked ${t.revokedAt!.toISOString()}` : t.state;
  const expiry = t.expiresAt ? `${t.state === "expired" ? "expired" : "expires"} ${t.expiresAt.toISOString()}` : "no expiry";
  const used = t.lastUsedAt ? `last used ${t.lastUsedAt.toISOString()}` : "never used";
  return `${t.id}  ${t.prefix}…  ${t.name}  ${scope}  ${state}  ${expiry}  ${used}`;
}

export async function tokenCommand(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  return withLocalDb(async (db) => {
    const owner = ownerService(db);
    switch (sub) {
      case "create": {
        const opts = parseCreateArgs(rest);
        let created: Awaited<ReturnType<typeof owner.createToken>>;
        try {
          created = await owner.createToken(opts.name, { expires: opts.expires, scope: opts.scope });
        } catch (err) {
          if (isDomainError(err)) throw new CliError(err.message, 2);
          throw err;
        }
        const expiry = created.expiresAt ? `expires ${created.expiresAt.toISOString()}` : "no expiry";
        console.error(`Token "${opts.name}" created (id ${created.id}; scope ${created.scope}; ${expiry}). It is shown once; store it now:`);
        console.log(created.token);
        return 0;
      }
      case "list": {
        const tokens = await owner.listTokens();
        if (!tokens.length) console.log("No API tokens.");
        for (const t of tokens) console.log(describeToken(t));
        return 0;
      }
      case "revoke": {
        const [arg] = rest;
        if (!arg) throw new CliError("Usage: trainyard token revoke ID|PREFIX", 2);
        if (!(await owner.revokeToken(arg))) throw new CliError(`No active token matches "${arg}".`);
        console.log(`Token ${arg} revoked.`);
        return 0;
      }
      default:
        throw new CliError(`${USAGE}\n\nScopes:\n${SCOPE_HELP}`, 2);
    }
  });
}
