/** Number flags of the CLI, read once: what the text must be, and the words when it is not (exit 2). */
import { CliError } from "./cli-error";

const refuse = (flag: string, want: string, text: string, usage?: string) => new CliError(`${flag} ${want} (got ${text}).${usage ? `\n${usage}` : ""}`, 2);

/** A whole number ≥ 1 (`--window-requests 200`). */
export function wholeFlag(text: string | undefined, flag: string, usage?: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^[1-9]\d*$/.test(text)) throw refuse(flag, "must be a whole number ≥ 1", text, usage);
  return Number(text);
}

/** Minutes above 0, fractions allowed (`--window-minutes 0.5`). */
export function minutesFlag(text: string | undefined, flag: string, usage?: string): number | undefined {
  if (text === undefined) return undefined;
  if (!(/^\d+(\.\d+)?$/.test(text) && Number(text) > 0)) throw refuse(flag, "is a number of minutes above 0, like 60 or 0.5", text, usage);
  return Number(text);
}

/** A number ≥ 0, fractions allowed (`--max-failure-rate 0.05`). */
export function amountFlag(text: string | undefined, flag: string, usage?: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(text)) throw refuse(flag, "must be a number ≥ 0", text, usage);
  return Number(text);
}

/** A whole number ≥ 0 (`--bake-minutes 0`: none asked). */
export function countFlag(text: string | undefined, flag: string, usage?: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) throw refuse(flag, "takes a whole number", text, usage);
  return Number(text);
}

/** A share in percent above 0 and at most `max`, fractions allowed (`--newest-percent 10`). */
export function percentFlag(text: string | undefined, flag: string, max: number, usage?: string): number | undefined {
  if (text === undefined) return undefined;
  if (!(/^\d+(\.\d+)?$/.test(text) && Number(text) > 0 && Number(text) <= max)) throw refuse(flag, `takes a number above 0 and at most ${max}`, text, usage);
  return Number(text);
}

/** A number above 0, fractions allowed (`--max-export-mib 0.5`). */
export function positiveFlag(text: string | undefined, flag: string, usage?: string): number | undefined {
  if (text === undefined) return undefined;
  if (!(/^\d+(\.\d+)?$/.test(text) && Number(text) > 0)) throw refuse(flag, "takes a number above 0", text, usage);
  return Number(text);
}
