import { ownerService } from "@/server/auth/owner.service";
import { isDomainError } from "@/server/errors";
import { CliError } from "../cli-error";
import { withLocalDb } from "../local-db";
import { readSecret } from "../read-secret";

export const USAGE = "Usage: trainyard owner set-password   (reads the new password from the terminal, or from stdin)";

export async function ownerCommand(args: string[]): Promise<number> {
  if (args[0] !== "set-password") throw new CliError(USAGE, 2);
  const password = await readSecret("New owner password: ");
  if (process.stdin.isTTY) {
    const again = await readSecret("Repeat it: ");
    if (again !== password) throw new CliError("The two passwords differ; nothing was changed.");
  }
  await withLocalDb(async (db) => {
    try {
      await ownerService(db).setPassword(password);
    } catch (err) {
      if (isDomainError(err)) throw new CliError(err.message);
      throw err;
    }
  });
  console.log("Owner password set. Every page and API call now needs a sign-in or an API token; earlier sign-ins have ended.");
  return 0;
}
