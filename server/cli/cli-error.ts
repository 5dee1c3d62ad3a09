/**
 * A failure the CLI reports to a person (its message) and to scripts: the exit code, and
 * under --json an `{"error": {"message", "code"}}` object on stdout. Codes are stable
 * snake_case words: usage, server_unreachable, server_timeout, unauthorized,
 * no_such_column, file_unreadable, upload_refused, not_found, … (docs/index.md).
 */
export class CliError extends Error {
  readonly code: string;

  constructor(
    message: string,
    readonly exitCode = 1,
    code?: string,
  ) {
    super(message);
    this.name = "CliError";
    this.code = code ?? (exitCode === 2 ? "usage" : "failed");
  }
}

/** The JSON a failed `--json` command prints on stdout. */
export function errorJson(message: string, code: string): { error: { message: string; code: string } } {
  return { error: { message, code } };
}
