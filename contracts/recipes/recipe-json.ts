/**
 * Where each recipe's recipe.json lives, and the file with its jobs' inputSchema
 * generated from the contracts (kept in step by scripts/recipe-input-schemas.ts).
 */
import { inputJsonSchema } from "./json-schema";
import { RECIPES, type RecipeName } from "./index";

export const RECIPE_JSON_FILES: Record<RecipeName, string> = {
  data: "training/recipes/data/recipe.json",
  tabular: "training/recipes/tabular/recipe.json",
  export: "training/recipes/export/recipe.json",
  evaluation: "training/evaluation/recipe.json",
  "evaluation-lm": "training/evaluation_lm/recipe.json",
  "llm-lora": "training/recipes/llm_lora/recipe.json",
  "serve-tabular": "training/serving/tabular/recipe.json",
  "serve-llm": "training/serving/llm/recipe.json",
  search: "training/recipes/search/recipe.json",
};

interface RecipeJson {
  jobs: Record<string, { inputSchema?: unknown } & Record<string, unknown>>;
}

/** The recipe.json with every job's inputSchema replaced by the one its contract generates. */
export function withGeneratedInputSchemas<T extends RecipeJson>(recipe: string, json: T): T {
  const jobs: Record<string, { input: Parameters<typeof inputJsonSchema>[0] }> = RECIPES[recipe as RecipeName];
  const out = structuredClone(json);
  for (const [job, spec] of Object.entries(out.jobs)) {
    const contract = jobs[job];
    if (!contract) throw new Error(`${recipe}.${job} is in recipe.json but has no contract in contracts/recipes`);
    const { inputSchema: _old, ...rest } = spec;
    const ordered: Record<string, unknown> = {};
    // Keep the key order of the file (description, inputSchema, example).
    for (const key of Object.keys(spec)) ordered[key] = key === "inputSchema" ? inputJsonSchema(contract.input) : rest[key];
    out.jobs[job] = ordered;
  }
  return out;
}
