/**
 * A recipe output reaches TypeScript only through its contract (contracts/recipes, read
 * with server/jobs/read-output.ts): this scan of server/ and components/ fails on the
 * ways an output used to be re-typed by hand — a cast on a results/receipt/profile field,
 * `unknown` on such a field, a generic JSON reader, a worker `fetch` outside readOutput —
 * and on any `as unknown as`, unless it is listed below with the reason it is not one.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const REPO = path.resolve(import.meta.dirname, "..", "..");
const ROOTS = ["server", "components"];

/** Fields that hold a recipe output (or a view of one) wherever they appear. */
const OUTPUT_FIELDS = "results|result|receipt|candidate|baseline|training|leaderboard|featureImportance|featureSchema|profile|contract";

interface Rule {
  name: string;
  pattern: RegExp;
  /** Files the rule does not apply to (the one reader itself). */
  except?: string[];
}

const RULES: Rule[] = [
  { name: "a cast on a recipe output field", pattern: new RegExp(`\\.(${OUTPUT_FIELDS})\\)?\\s+as\\s+(?!const\\b)`) },
  { name: "`unknown` as the type of a recipe output field", pattern: new RegExp(`^\\s*(readonly\\s+)?(${OUTPUT_FIELDS})\\??:\\s*unknown\\b`, "m") },
  { name: "a stored recipe output parsed with a cast", pattern: new RegExp(`JSON\\.parse\\([^)]*\\b(${OUTPUT_FIELDS})\\b[^)]*\\)\\s*as\\b`) },
  { name: "a generic output reader (use readOutput with the contract schema)", pattern: /\b(readOutputJson|readOptionalOutputJson|readFinishedOutputJson|readJobOutputJson|readOutputFile)\b/ },
  { name: "a worker fetch outside readOutput", pattern: /exec\(\s*"fetch"|op:\s*"fetch"/, except: ["server/jobs/read-output.ts"] },
  { name: "`as unknown as`", pattern: /\bas unknown as\b/ },
];

/** `as unknown as` that is not about a recipe output, each with why it is needed. */
const ALLOWED: { file: string; contains: string; reason: string }[] = [
  { file: "server/targets/transport.ts", contains: "as unknown as NodeJS.ProcessEnv", reason: "a minimal child environment: ProcessEnv declares TZ and other optional keys" },
  { file: "server/testing/server-harness.ts", contains: "as unknown as NodeJS.ProcessEnv", reason: "the test server's child environment, as above" },
  { file: "server/experiments/journey.integration.test.ts", contains: "as unknown as NodeJS.ProcessEnv", reason: "predict.py's child environment, as above" },
  { file: "server/db/schema-engine.ts", contains: "as unknown as WebAssembly.ModuleImports", reason: "Prisma's generated wasm glue has no import types" },
  { file: "server/cli/read-secret.ts", contains: "as unknown as { _writeToOutput", reason: "readline's private echo hook, to hide a typed secret" },
  { file: "server/datasets/test-support.ts", contains: "as unknown as BodyInit", reason: "a Buffer as a fetch body (Node accepts it; the DOM type does not list it)" },
  { file: "server/http/access.integration.test.ts", contains: "(appRouter as unknown as", reason: "tRPC's router internals, to list every procedure" },
  { file: "server/registry/registry.integration.test.ts", contains: "(history.json as unknown as { kind: string }[])", reason: "the CLI's --json output of `models history` (registry events), not a recipe output" },
  { file: "server/api/strict-inputs.test.ts", contains: "as unknown as Record<string, { _def: ProcedureDef }>", reason: "tRPC's router internals, to list every procedure" },
];

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(path.join(REPO, dir), { withFileTypes: true })) {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(rel));
    else if (/\.(ts|tsx)$/.test(e.name)) out.push(rel);
  }
  return out;
}

/** Every line of `text` the rule flags, minus the allowed ones. */
function findings(file: string, text: string): string[] {
  const found: string[] = [];
  for (const rule of RULES) {
    if (rule.except?.includes(file)) continue;
    text.split("\n").forEach((line, i) => {
      if (!rule.pattern.test(line)) return;
      if (ALLOWED.some((a) => a.file === file && line.includes(a.contains))) return;
      found.push(`${file}:${i + 1}: ${rule.name}: ${line.trim().slice(0, 160)}`);
    });
  }
  return found;
}

const THIS_FILE = "server/jobs/recipe-outputs-typed.test.ts";

describe("recipe outputs are typed by their contracts", () => {
  it("server/ and components/ hold no cast, `unknown` or hand-rolled reader of a recipe output", () => {
    const all = ROOTS.flatMap(sources).filter((f) => f !== THIS_FILE);
    expect(all.length).toBeGreaterThan(100);
    expect(all.flatMap((f) => findings(f, readFileSync(path.join(REPO, f), "utf8")))).toEqual([]);
  });

  it("each allowed `as unknown as` is still there (a stale entry would hide a new one)", () => {
    for (const a of ALLOWED) expect(readFileSync(path.join(REPO, a.file), "utf8"), `${a.file}: ${a.reason}`).toContain(a.contains);
  });

  it("flags the shapes it was written for", () => {
    const bad = [
      "const cand = exp.results.candidate as unknown as Receipt;",
      "const lb = exp.results?.leaderboard as Leaderboard | null;",
      "  result: unknown;",
      "const p = JSON.parse(d.profile) as { rows: number };",
      "const t = await readFinishedOutputJson<Training>(db, job, \"training.json\");",
      "const res = await target.exec(\"fetch\", { jobId, path: file });",
    ];
    for (const line of bad) expect(findings("server/x.ts", line), line).not.toEqual([]);
    expect(findings("server/x.ts", "const phase = s.phase as const;")).toEqual([]);
    expect(findings("server/x.ts", "const env = process.env as Record<string, string>;")).toEqual([]);
  });
});
