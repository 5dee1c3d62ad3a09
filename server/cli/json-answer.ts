/**
 * A server's JSON answer as the CLI reads it. A refusal whose body is not JSON (a proxy's
 * page, a cut connection) still comes back as `{ error }` saying what arrived; a success
 * that is not JSON is an error of its own, never an empty result taken for the answer.
 */
import { CliError } from "./cli-error";

export async function jsonAnswer<T extends { error?: string }>(res: Response): Promise<T> {
  const text = await res.text().catch((err: unknown) => {
    throw new CliError(`The server's answer (HTTP ${res.status}) broke off: ${(err as Error).message}`, 1, "server_error");
  });
  try {
    return JSON.parse(text) as T;
  } catch {
    const words = `HTTP ${res.status}${text.trim() ? `: ${text.trim().slice(0, 200)}` : ""}`;
    if (res.ok) throw new CliError(`The server answered something that is not JSON (${words}).`, 1, "server_error");
    return { error: words } as T;
  }
}
