/**
 * `trainyard` command dispatch. Each command lives in server/cli/commands/. Exit codes:
 * 0 success, 1 failure, 2 bad usage.
 */
import { VERSION } from "@/server/lifecycle/server-info";
import { backupCommand } from "./commands/backup";
import { datasetCommand } from "./commands/dataset";
import { ownerCommand } from "./commands/owner";
import { startCommand } from "./commands/start";
import { tokenCommand } from "./commands/token";
import { trainCommand } from "./commands/train";
import { finetuneCommand } from "./commands/finetune";
import { experimentsCommand } from "./commands/experiments";
import { modelsCommand } from "./commands/models";
import { deployCommand, deploymentsCommand } from "./commands/deploy";
import { reportFailure } from "./failure";
import { ensureBuilt } from "./ensure-built";
import { ensureWorkerBuilt } from "./ensure-worker-built";
import { REPO_ROOT } from "./local-db";

const USAGE = `trainyard ${VERSION} — self-hosted ML workspace

Usage:
  trainyard build                      build the web app and the worker if sources changed (start does this too)
  trainyard start [--dev]              start the server (TRAINYARD_HOST, TRAINYARD_PORT, TRAINYARD_HOME)
  trainyard owner set-password         set the owner password (reads it from stdin when not a terminal)
  trainyard token create NAME [--expires 30d] [--read-only]
                                       create an API token (shown once)
  trainyard token list                 list API tokens
  trainyard token revoke ID|PREFIX     revoke an API token
  trainyard train --data FILE --target COLUMN [options]   train a prediction model (see trainyard train --help)
  trainyard finetune --model FOLDER|FILE.gguf --data FILE.jsonl [options]
                                       fine-tune a language model with LoRA (see trainyard finetune --help)
  trainyard experiments list|show|cancel|logs             inspect experiments
  trainyard models list|show|register|promote|rollback|history|compare|retention|remove
                                       the model registry (see trainyard models --help)
  trainyard deploy MODEL[:VERSION|@ALIAS] [--name N] [--mode resident|on-demand] [--computer NAME]
                                       serve a registered version behind authenticated routes
  trainyard deployments list|show|switch|rollback|stop|resume|keys
                                       deployments and their keys (see trainyard deployments --help)
  trainyard dataset upload FILE --project NAME   upload a data file to a project (CSV, TSV, Parquet, gzip CSV)
  trainyard backup DIR                 consistent copy of the database plus a manifest of managed data
  trainyard --version                  print the version
`;

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case "--version":
      case "-v":
      case "version":
        console.log(VERSION);
        return 0;
      case undefined:
      case "--help":
      case "-h":
      case "help":
        console.log(USAGE);
        return command === undefined ? 2 : 0;
      case "build":
        console.log(`worker bundle: ${await ensureWorkerBuilt(REPO_ROOT)}`);
        console.log(`web app build: ${await ensureBuilt(REPO_ROOT)}`);
        return 0;
      case "start":
        return await startCommand(rest);
      case "owner":
        return await ownerCommand(rest);
      case "token":
        return await tokenCommand(rest);
      case "train":
        return await trainCommand(rest);
      case "finetune":
        return await finetuneCommand(rest);
      case "experiments":
        return await experimentsCommand(rest);
      case "models":
        return await modelsCommand(rest);
      case "deploy":
        return await deployCommand(rest);
      case "deployments":
        return await deploymentsCommand(rest);
      case "backup":
        return await backupCommand(rest);
      case "dataset":
        return await datasetCommand(rest);
      default:
        console.error(`Unknown command "${command}".\n\n${USAGE}`);
        return 2;
    }
  } catch (err) {
    return reportFailure(err, rest.includes("--json"));
  }
}
