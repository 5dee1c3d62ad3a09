// A job's input is checked against its recipe's contract (contracts/recipes) at submit,
// so a bad one is refused with the zod issues before anything runs, instead of surfacing
// later as a recipe's exit 2 or a Python traceback. The input is checked, never rewritten:
// the recipe still gets exactly what the controller sent (its own defaults apply there).
import type { z } from "zod";
import { jobContract } from "../../contracts/recipes";
import { WorkerError } from "./errors";

export interface InputIssue {
  path: (string | number)[];
  code: string;
  message: string;
}

const MAX_LISTED = 20;

function issuesOf(error: z.ZodError): InputIssue[] {
  return error.issues.map((i) => ({ path: i.path.map((p) => (typeof p === "symbol" ? String(p) : p)), code: i.code, message: i.message }));
}

/**
 * Throws `invalid_input` (details: recipe, job, issues) when `input` does not match the
 * contract of recipe.job. A recipe this build has no contract for (a test fixture, a
 * recipe newer than the controller) is not checked here: its own code checks its input.
 */
export function checkJobInput(recipe: string, job: string, input: unknown): void {
  const contract = jobContract(recipe, job);
  if (!contract) return;
  const parsed = contract.input.safeParse(input);
  if (parsed.success) return;
  const issues = issuesOf(parsed.error);
  const listed = issues.slice(0, MAX_LISTED).map((i) => `${i.path.join(".") || "(input)"}: ${i.message}`);
  const more = issues.length > MAX_LISTED ? `; and ${issues.length - MAX_LISTED} more` : "";
  throw new WorkerError("invalid_input", `input of ${recipe}.${job} does not match its contract: ${listed.join("; ")}${more}`, { recipe, job, issues });
}
