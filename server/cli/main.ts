/**
 * `trainyard` command dispatch. Each command lives in server/cli/commands/. Exit codes:
 * 0 success, 1 failure, 2 bad usage.
 */
import { VERSION } from "@/server/lifecycle/server-info";
import { reportFailure } from "./failure";
import { REPO_ROOT } from "./repo-root";

type Command = (argv: string[]) => Promise<number>;

/** A command, and its usage for `--help` when the command does not answer --help itself. */
interface Loaded {
  run: Command;
  help?: string;
}

// Each command is loaded when it is run: `start` and the commands that open the local
// database pull in the whole server and Prisma (about 2 s of imports), which a command
// that only talks to the server over HTTP (`experiments list`) must not pay.
const COMMANDS: Record<string, () => Promise<Loaded>> = {
  start: async () => import("./commands/start").then((m) => ({ run: m.startCommand, help: m.USAGE })),
  owner: async () => import("./commands/owner").then((m) => ({ run: m.ownerCommand, help: m.USAGE })),
  token: async () => import("./commands/token").then((m) => ({ run: m.tokenCommand, help: m.USAGE })),
  train: async () => ({ run: (await import("./commands/train")).trainCommand }),
  finetune: async () => ({ run: (await import("./commands/finetune")).finetuneCommand }),
  experiments: async () => import("./commands/experiments").then((m) => ({ run: m.experimentsCommand, help: m.USAGE })),
  searches: async () => ({ run: (await import("./commands/searches")).searchesCommand }),
  models: async () => import("./commands/models").then((m) => ({ run: m.modelsCommand, help: m.USAGE })),
  deploy: async () => import("./commands/deploy").then((m) => ({ run: m.deployCommand, help: m.DEPLOY_USAGE })),
  deployments: async () => import("./commands/deploy").then((m) => ({ run: m.deploymentsCommand, help: m.USAGE })),
  monitors: async () => import("./commands/monitors").then((m) => ({ run: m.monitorsCommand, help: m.USAGE })),
  schedules: async () => import("./commands/schedules").then((m) => ({ run: m.schedulesCommand, help: m.USAGE })),
  mcp: async () => ({ run: (await import("./commands/mcp")).mcpCommand }),
  backup: async () => import("./commands/backup").then((m) => ({ run: m.backupCommand, help: m.USAGE })),
  dataset: async () => import("./commands/dataset").then((m) => ({ run: m.datasetCommand, help: m.USAGE })),
  holdouts: async () => import("./commands/holdouts").then((m) => ({ run: m.holdoutsCommand, help: m.USAGE })),
  computers: async () => import("./commands/computers").then((m) => ({ run: m.computersCommand, help: m.USAGE })),
  policies: async () => import("./commands/policies").then((m) => ({ run: m.policiesCommand, help: m.USAGE })),
};

const asksForHelp = (args: string[]) => args.includes("--help") || args.includes("-h");

const BUILD_USAGE = "Usage: trainyard build   (builds the web app and the worker bundle when their sources changed; start does this too)";

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
  trainyard monitors create|list|show|check|pause|resume|retry|reference
                                       watch a deployment's inputs for drift, failures and latency (see trainyard monitors --help)
  trainyard schedules create|list|show|run|pause|resume|remove
                                       retrain on a file at a clock's slots, without backlog (see trainyard schedules --help)
  trainyard mcp --project NAME         agent tools (MCP over stdio) for Claude Code and other clients (docs/agents.md)
  trainyard dataset upload FILE --project NAME   upload a data file to a project (CSV, TSV, Parquet, gzip CSV)
  trainyard holdouts create|list|compare         reserve data no training sees; compare versions on it (see trainyard holdouts --help)
  trainyard policies set|show|approve|reject     how new versions of a model get promoted: approval or automatic (see trainyard policies --help)
  trainyard computers list|add|remove            training computers; add a Slurm cluster (see trainyard computers --help)
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
        if (!asksForHelp(rest)) return await build();
        console.log(BUILD_USAGE);
        return 0;
      default: {
        const load = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
        if (load) {
          const loaded = await load();
          // Asked for help, a command answers its usage and exit 0 (never runs: `start --help` starts nothing).
          if (loaded.help && asksForHelp(rest)) {
            console.log(loaded.help);
            return 0;
          }
          return await loaded.run(rest);
        }
        console.error(`Unknown command "${command}".\n\n${USAGE}`);
        return 2;
      }
    }
  } catch (err) {
    return reportFailure(err, rest.includes("--json"));
  }
}
