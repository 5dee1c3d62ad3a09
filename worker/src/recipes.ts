// Recipe discovery (contracts.md): `<trainingDir>/recipes/*/recipe.json` and
// `<trainingDir>/evaluation{,_lm}/recipe.json`, plus the environment id formula:
// sha256("<python major.minor.micro>\n" + raw bytes of requirements.txt).
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ZRecipeJson } from "../../contracts/recipes/recipe-file";
import { WorkerError } from "./errors";

export interface Recipe {
  name: string;
  version: string;
  description: string;
  module: string;
  dir: string;
  requirementsFile: string;
  resident: boolean;
  /** Modules a warm runner imports for this recipe's jobs (empty: they start cold). */
  preload: string[];
  jobs: string[];
}

export function discoverRecipes(trainingDir: string): { recipes: Recipe[]; problems: string[] } {
  const files: string[] = [];
  const recipesDir = path.join(trainingDir, "recipes");
  if (fs.existsSync(recipesDir)) {
    for (const d of fs.readdirSync(recipesDir).sort()) {
      const f = path.join(recipesDir, d, "recipe.json");
      if (fs.existsSync(f)) files.push(f);
    }
  }
  // The trusted evaluators live beside recipes/, not in it: tabular, then language models.
  for (const evaluator of ["evaluation", "evaluation_lm"]) {
    const f = path.join(trainingDir, evaluator, "recipe.json");
    if (fs.existsSync(f)) files.push(f);
  }
  files.push(...servingRecipeFiles(trainingDir));
  const recipes: Recipe[] = [];
  const problems: string[] = [];
  for (const f of files) {
    try {
      const j = ZRecipeJson.parse(JSON.parse(fs.readFileSync(f, "utf8")));
      const dir = path.dirname(f);
      recipes.push({
        name: j.name,
        version: j.version,
        description: j.description,
        module: j.module,
        dir,
        requirementsFile: path.resolve(dir, j.requirements),
        resident: j.resident,
        preload: j.preload,
        jobs: Object.keys(j.jobs),
      });
    } catch (err) {
      problems.push(`${f}: ${(err as Error).message.slice(0, 300)}`);
    }
  }
  return { recipes, problems };
}

// The deployments' serving recipes, `<trainingDir>/serving/*/recipe.json` (issue 16).
function servingRecipeFiles(trainingDir: string): string[] {
  const dir = path.join(trainingDir, "serving");
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .sort()
    .map((d) => path.join(dir, d, "recipe.json"))
    .filter((f) => fs.existsSync(f));
}

export function findRecipe(trainingDir: string, name: string): Recipe {
  const r = discoverRecipes(trainingDir).recipes.find((x) => x.name === name);
  if (!r) throw new WorkerError("recipe_not_found", `no recipe ${JSON.stringify(name)} under ${trainingDir}`);
  return r;
}

export function environmentId(pythonVersion: string, requirements: Buffer): string {
  return crypto.createHash("sha256").update(Buffer.from(`${pythonVersion}\n`, "utf8")).update(requirements).digest("hex");
}

export function recipeEnvironmentId(recipe: Recipe, pythonVersion: string): string {
  const req = fs.existsSync(recipe.requirementsFile) ? fs.readFileSync(recipe.requirementsFile) : Buffer.alloc(0);
  return environmentId(pythonVersion, req);
}

export function envDir(envsDir: string, environmentId: string): string {
  return path.join(envsDir, environmentId);
}

/** An environment exists only once its ready.json is there (written last by build_env.py). */
export function envReady(envsDir: string, environmentId: string): boolean {
  return fs.existsSync(path.join(envsDir, environmentId, "ready.json")) && fs.existsSync(path.join(envsDir, environmentId, "venv", "bin", "python"));
}

export function listEnvironments(envsDir: string): Array<{ environmentId: string; recipe: string | null; pythonVersion: string | null; createdAt: string | null; path: string }> {
  if (!fs.existsSync(envsDir)) return [];
  const out = [];
  for (const d of fs.readdirSync(envsDir).sort()) {
    if (!/^[0-9a-f]{64}$/.test(d)) continue;
    const f = path.join(envsDir, d, "ready.json");
    if (!fs.existsSync(f)) continue;
    let j: Record<string, unknown> = {};
    try {
      j = JSON.parse(fs.readFileSync(f, "utf8"));
    } catch {
      // listed with unknown fields rather than hidden
    }
    out.push({
      environmentId: d,
      recipe: typeof j.recipe === "string" ? j.recipe : null,
      pythonVersion: typeof j.pythonVersion === "string" ? j.pythonVersion : null,
      createdAt: typeof j.createdAt === "string" ? j.createdAt : null,
      path: path.join(envsDir, d),
    });
  }
  return out;
}
