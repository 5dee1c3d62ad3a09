/**
 * Every recipe job's input and the schema of each JSON file it writes:
 * RECIPES[recipe][job] = { input, outputs: { "<file>": schema } }.
 * Each recipe.json's inputSchema is generated from `input` (scripts/recipe-input-schemas.ts),
 * the worker checks a job's input against it at submit, and the server reads an output
 * only through its schema (server/jobs/read-output.ts).
 */
import type { z } from "zod";
import { data } from "./data";
import { evaluation } from "./evaluation";
import { evaluationLm } from "./evaluation-lm";
import { exportRecipe } from "./export";
import { llmLora } from "./llm-lora";
import { search } from "./search";
import { serveLlm, serveTabular } from "./serving";
import { tabular } from "./tabular";

export * from "./common";
export * from "./data";
export * from "./evaluation";
export * from "./evaluation-lm";
export * from "./export";
export * from "./llm-lora";
export * from "./search";
export * from "./serving";
export * from "./tabular";

export const RECIPES = { data, tabular, evaluation, "evaluation-lm": evaluationLm, export: exportRecipe, "llm-lora": llmLora, "serve-tabular": serveTabular, "serve-llm": serveLlm, search } as const;

export type RecipeName = keyof typeof RECIPES;
export type JobName<R extends RecipeName> = keyof (typeof RECIPES)[R] & string;
type Jobs = { [R in RecipeName]: (typeof RECIPES)[R] };

/** The outputs a job declares, by file name. */
export type OutputsOf<R extends RecipeName, J extends JobName<R>> = Jobs[R][J] extends { outputs: infer O } ? O : never;
export type OutputFile<R extends RecipeName, J extends JobName<R>> = keyof OutputsOf<R, J> & string;
export type InputOf<R extends RecipeName, J extends JobName<R>> = Jobs[R][J] extends { input: infer I extends z.ZodType } ? z.input<I> : never;

export interface JobContract {
  input: z.ZodType;
  outputs: Record<string, z.ZodType>;
}

function isRecipe(name: string): name is RecipeName {
  return Object.hasOwn(RECIPES, name);
}

/** The contract of recipe.job, or null for a recipe this build has none for (a test fixture). */
export function jobContract(recipe: string, job: string): JobContract | null {
  if (!isRecipe(recipe)) return null;
  const jobs: Record<string, JobContract> = RECIPES[recipe];
  return (Object.hasOwn(jobs, job) && jobs[job]) || null;
}

type OutputSchemasOf<T> = T extends { outputs: infer O } ? O[keyof O] : never;
/** Any output file's schema in RECIPES: what server/jobs/read-output.ts accepts. */
export type RecipeOutputSchema = { [R in RecipeName]: { [J in keyof Jobs[R]]: OutputSchemasOf<Jobs[R][J]> }[keyof Jobs[R]] }[RecipeName];
