import { backupHome } from "@/server/backup/backup";
import { CliError } from "../cli-error";
import { withLocalDb } from "../local-db";

export const USAGE = "Usage: trainyard backup DIR   (a consistent copy of the database and a manifest of the managed files, in a new folder under DIR)";

export async function backupCommand(args: string[]): Promise<number> {
  const dir = args[0];
  if (!dir || args.length > 1) throw new CliError(USAGE, 2);
  // A folder named like an option is a typo, not a place to write a backup.
  if (dir.startsWith("-")) throw new CliError(`Unknown option ${dir}.\n${USAGE}`, 2);
  const result = await withLocalDb((_db, home) => backupHome(home, dir));
  console.log(`Backup written to ${result.folder}`);
  console.log(`  database: ${result.databaseFile}`);
  console.log(`  manifest: ${result.manifestFile} (${result.files} managed files, ${result.bytes} bytes listed)`);
  return 0;
}
