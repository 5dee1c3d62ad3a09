/**
 * How a command's failure is reported: one message for people on stderr, and with
 * --json the same message and a code as a JSON object on stdout, so a script that reads
 * stdout always gets JSON. The exit code is 2 for bad usage, 1 otherwise.
 */
import { TRPCClientError } from "@trpc/client";
import { CliError, errorJson } from "./cli-error";

export interface Failure {
  message: string;
  code: string;
  exitCode: number;
}

export function describeFailure(err: unknown): Failure {
  if (err instanceof CliError) return { message: err.message, code: err.code, exitCode: err.exitCode };
  if (err instanceof TRPCClientError) {
    const code = typeof err.data?.code === "string" ? err.data.code.toLowerCase() : "server_error";
    return { message: err.message, code, exitCode: 1 };
  }
  // node:util parseArgs: an unknown option or a missing value.
  const nodeCode = (err as NodeJS.ErrnoException | undefined)?.code;
  if (typeof nodeCode === "string" && nodeCode.startsWith("ERR_PARSE_ARGS")) {
    return { message: (err as Error).message, code: "usage", exitCode: 2 };
  }
  return { message: err instanceof Error ? err.message : String(err), code: "internal", exitCode: 1 };
}

export function reportFailure(err: unknown, json: boolean): number {
  const f = describeFailure(err);
  console.error(f.message);
  if (json) console.log(JSON.stringify(errorJson(f.message, f.code), null, 2));
  return f.exitCode;
}
