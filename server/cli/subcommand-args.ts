/** The argv shape every `trainyard <noun> <verb>` command shares: a verb, positionals, and --project/--json. */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { CliError } from "./cli-error";

type Options = NonNullable<ParseArgsConfig["options"]>;

const COMMON_OPTIONS = {
  project: { type: "string", default: "Default" },
  json: { type: "boolean", default: false },
} as const satisfies Options;

export function parseSubcommand<const O extends Options>(argv: string[], options: O) {
  const [sub, ...rest] = argv;
  const { values, positionals } = parseArgs<{ args: string[]; allowPositionals: true; options: typeof COMMON_OPTIONS & O }>({
    args: rest,
    allowPositionals: true,
    options: { ...COMMON_OPTIONS, ...options },
  });
  return { sub, values, positionals };
}

/** A required argument of a subcommand: its value, or exit 2 naming what is missing with the usage. */
export function requiredArg(usage: string) {
  return <T>(v: T | undefined, what: string): T => {
    if (v === undefined || v === "") throw new CliError(`Missing ${what}.\n${usage}`, 2);
    return v;
  };
}
