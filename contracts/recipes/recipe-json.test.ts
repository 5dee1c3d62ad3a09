import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { inputJsonSchema } from "./json-schema";
import { RECIPES } from "./index";
import { RECIPE_JSON_FILES, withGeneratedInputSchemas } from "./recipe-json";

const repo = path.resolve(import.meta.dirname, "..", "..");
const read = (rel: string) => JSON.parse(readFileSync(path.join(repo, rel), "utf8")) as { name: string; jobs: Record<string, { inputSchema: unknown }> };

describe("recipe.json inputSchema and the zod contracts", () => {
  for (const [recipe, rel] of Object.entries(RECIPE_JSON_FILES)) {
    it(`${rel} has exactly the jobs contracts/recipes/${recipe} defines`, () => {
      const json = read(rel);
      expect(json.name).toBe(recipe);
      expect(Object.keys(json.jobs).sort()).toEqual(Object.keys(RECIPES[recipe as keyof typeof RECIPES]).sort());
    });

    it(`${rel} publishes the input schema generated from the contract (npx tsx scripts/recipe-input-schemas.ts)`, () => {
      const json = read(rel);
      const jobs: Record<string, { input: Parameters<typeof inputJsonSchema>[0] }> = RECIPES[recipe as keyof typeof RECIPES];
      for (const [job, spec] of Object.entries(json.jobs)) expect(spec.inputSchema, `${recipe}.${job}`).toEqual(inputJsonSchema(jobs[job]!.input));
      expect(withGeneratedInputSchemas(recipe, json)).toEqual(json);
    });
  }

  it("each recipe.json example input passes its contract", () => {
    for (const [recipe, rel] of Object.entries(RECIPE_JSON_FILES)) {
      const json = JSON.parse(readFileSync(path.join(repo, rel), "utf8")) as { jobs: Record<string, { example: unknown }> };
      const jobs: Record<string, { input: { safeParse: (v: unknown) => { success: boolean; error?: unknown } } }> = RECIPES[recipe as keyof typeof RECIPES];
      for (const [job, spec] of Object.entries(json.jobs)) {
        const r = jobs[job]!.input.safeParse(spec.example);
        expect(r.success, `${recipe}.${job}: ${JSON.stringify(r.error)}`).toBe(true);
      }
    }
  });
});
