import { ownerService } from "@/server/auth/owner.service";
import { CliError } from "../cli-error";
import { withLocalDb } from "../local-db";

export async function tokenCommand(args: string[]): Promise<number> {
  const [sub, arg] = args;
  return withLocalDb(async (db) => {
    const owner = ownerService(db);
    switch (sub) {
      case "create": {
        if (!arg) throw new CliError("Usage: trainyard token create NAME", 2);
        const { id, token } = await owner.createToken(arg);
        console.error(`Token "${arg}" created (id ${id}). It is shown once; store it now:`);
        console.log(token);
        return 0;
      }
      case "list": {
        const tokens = await owner.listTokens();
        if (!tokens.length) console.log("No API tokens.");
        for (const t of tokens) {
          const state = t.revokedAt ? `revoked ${t.revokedAt.toISOString()}` : "active";
          const used = t.lastUsedAt ? `last used ${t.lastUsedAt.toISOString()}` : "never used";
          console.log(`${t.id}  ${t.prefix}…  ${t.name}  ${state}  ${used}`);
        }
        return 0;
      }
      case "revoke": {
        if (!arg) throw new CliError("Usage: trainyard token revoke ID|PREFIX", 2);
        if (!(await owner.revokeToken(arg))) throw new CliError(`No active token matches "${arg}".`);
        console.log(`Token ${arg} revoked.`);
        return 0;
      }
      default:
        throw new CliError("Usage: trainyard token create NAME | list | revoke ID|PREFIX", 2);
    }
  });
}
