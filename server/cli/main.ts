/**
 * `trainyard` command dispatch. Each command lives in server/cli/commands/. Exit codes:
 * 0 success, 1 failure, 2 bad usage.
 */
import { VERSION } from "@/server/lifecycle/server-info";
import { reportFailure } from "./failure";
import { REPO_ROOT } from "./repo-root";

type Command = (argv: string[]) => Promise<number>;

// Each command is loaded when it is run: `start` and the commands that open the local
// database pull in the whole server and Prisma (about 2 s of imports), which a command
// that only talks to the server over HTTP (`experiments list`) must not pay.
const COMMANDS: Record<string, () => Promise<Command>> = {
  start: async () => (await import("./commands/start")).startCommand,
  owner: async () => (await import("./commands/owner")).ownerCommand,
  token: async () => (await import("./commands/token")).tokenCommand,
  train: async () => (await import("./commands/train")).trainCommand,
  finetune: async () => (await import("./commands/finetune")).finetuneCommand,
  experiments: async () => (await import("./commands/experiments")).experimentsCommand,
  searches: async () => (await import("./commands/searches")).searchesCommand,
  models: async () => (await import("./commands/models")).modelsCommand,
  deploy: async () => (await import("./commands/deploy")).deployCommand,
  deployments: async () => (await import("./commands/deploy")).deploymentsCommand,
  mcp: async () => (await import("./commands/mcp")).mcpCommand,
  backup: async () => (await import("./commands/backup")).backupCommand,
  dataset: async () => (await import("./commands/dataset")).datasetCommand,
};

async function build(): Promise<number> {
  const [{ ensureWorkerBuilt }, { ensureBuilt }] = await Promise.all([import("./ensure-worker-built"), import("./ensure-built")]);
  console.log(`worker bundle: ${await ensureWorkerBuilt(REPO_ROOT)}`);
  console.log(`web app build: ${await ensureBuilt(REPO_ROOT)}`);
  return 0;
}

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
  trainyard searches list|show|pause|resume|stop|propose  bounded searches (start one: train --mode improve)
  trainyard models list|show|register|promote|rollback|history|compare|retention|remove
                                       the model registry (see trainyard models --help)
  trainyard deploy MODEL[:VERSION|@ALIAS] [--name N] [--mode resident|on-demand] [--computer NAME] [--memory-gb N]
                                       serve a registered version behind authenticated routes
  trainyard deployments list|show|switch|rollback|stop|resume|keys
                                       deployments and their keys (see trainyard deployments --help)
  trainyard mcp --project NAME         agent tools (MCP over stdio) for Claude Code and other clients (docs/agents.md)
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
        return await build();
      default: {
        const load = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
        if (load) return await (await load())(rest);
        console.error(`Unknown command "${command}".\n\n${USAGE}`);
        return 2;
      }
    }
  } catch (err) {
    return reportFailure(err, rest.includes("--json"));
  }
}
