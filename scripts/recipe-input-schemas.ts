/**
 * Writes each recipe.json's job inputSchema from its zod contract (contracts/recipes), so
 * the published JSON Schema and what the worker checks at submit are one definition.
 *   npx tsx scripts/recipe-input-schemas.ts          rewrite the recipe.json files
 *   npx tsx scripts/recipe-input-schemas.ts --check  exit 1 when one is out of date
 * contracts/recipes/recipe-json.test.ts fails on a stale file too.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { RECIPE_JSON_FILES, withGeneratedInputSchemas } from "../contracts/recipes/recipe-json";

const repo = path.resolve(import.meta.dirname, "..");
const check = process.argv.includes("--check");
let stale = 0;
for (const [recipe, rel] of Object.entries(RECIPE_JSON_FILES)) {
  const file = path.join(repo, rel);
  const current = readFileSync(file, "utf8");
  const next = `${JSON.stringify(withGeneratedInputSchemas(recipe, JSON.parse(current)), null, 2)}\n`;
  if (next === current) continue;
  stale += 1;
  if (check) console.error(`${rel}: inputSchema differs from contracts/recipes/${recipe}`);
  else writeFileSync(file, next);
}
if (check && stale) process.exit(1);
console.log(check ? "recipe.json input schemas are up to date" : `rewrote ${stale} recipe.json file(s)`);
