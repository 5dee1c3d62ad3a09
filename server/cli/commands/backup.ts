import { backupHome } from "@/server/backup/backup";
import { CliError } from "../cli-error";
import { withLocalDb } from "../local-db";

export async function backupCommand(args: string[]): Promise<number> {
  const dir = args[0];
  if (!dir) throw new CliError("Usage: trainyard backup DIR", 2);
  const result = await withLocalDb((_db, home) => backupHome(home, dir));
  console.log(`Backup written to ${result.folder}`);
  console.log(`  database: ${result.databaseFile}`);
  console.log(`  manifest: ${result.manifestFile} (${result.files} managed files, ${result.bytes} bytes listed)`);
  return 0;
}
