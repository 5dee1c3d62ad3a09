/** The argv shape every `trainyard <noun> <verb>` command shares: a verb, positionals, and --project/--json. */
import { parseArgs, type ParseArgsConfig } from "node:util";

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
