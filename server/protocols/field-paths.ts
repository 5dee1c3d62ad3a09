/**
 * Zod issues as field problems with the JSON path a caller wrote (`dataframe_split.data[3][1]`),
 * for the protocol bodies' shape checks (their values are checked by predict-rows.ts).
 */
import type { z } from "zod";
import type { FieldProblem } from "./table-request";

/** `a.b[3].c`; a key that is not a plain name is written `["…"]`. */
export function jsonPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(String(key))) out += out ? `.${String(key)}` : String(key);
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

/** One problem per issue (a union's own issues are summed up as its message), at most 50. */
export function issueFields(issues: readonly z.core.$ZodIssue[], prefix: readonly PropertyKey[] = []): FieldProblem[] {
  return issues.slice(0, 50).map((i) => ({ path: jsonPath([...prefix, ...i.path]) || "(the body)", message: i.message }));
}
