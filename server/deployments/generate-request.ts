/**
 * Checks a generate / stream body before anything is forwarded, one problem per field
 * (`messages[1].role` → what is wrong) as predict does for rows, and caps the tokens to
 * generate at what the release's serving process was started with.
 */
import type { z } from "zod";
import { ZDeploymentGenerateRequest, type DeploymentGenerateRequest } from "@/contracts/deployments/serving";
import { badInput } from "@/server/errors";
import type { FieldProblem } from "./predict-rows";

/** `["messages", 1, "role"]` → `messages[1].role`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, p) => (typeof p === "number" ? `${out}[${p}]` : out ? `${out}.${String(p)}` : String(p)), "");
}

function problems(error: z.ZodError): FieldProblem[] {
  return error.issues.map((i) => ({ path: fieldPath(i.path) || "(body)", message: i.message }));
}

/** The request, or BAD_INPUT `bad_input` with `fields`; over the token cap is `too_large` (413). */
export function checkGenerate(body: unknown, limits: { maxNewTokens: number }): DeploymentGenerateRequest {
  const parsed = ZDeploymentGenerateRequest.safeParse(body);
  if (!parsed.success) {
    const fields = problems(parsed.error).slice(0, 50);
    const first = fields[0]!;
    throw badInput(`The body must be {"prompt": "…"} or {"messages": [{"role", "content"}, …]}, with optional "maxNewTokens", "temperature", "topP", "seed" and "stop": ${first.path}: ${first.message}.`, { code: "bad_input", fields });
  }
  const asked = parsed.data.maxNewTokens;
  if (asked !== undefined && asked > limits.maxNewTokens) {
    throw badInput(`At most ${limits.maxNewTokens} new tokens per request (maxNewTokens was ${asked}).`, {
      code: "too_large",
      fields: [{ path: "maxNewTokens", message: `at most ${limits.maxNewTokens}` }],
    });
  }
  return parsed.data;
}
