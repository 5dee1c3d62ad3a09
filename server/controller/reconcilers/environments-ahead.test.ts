import { describe, expect, it } from "vitest";
import type { TProbe } from "@/server/targets/targets.schema";
import { missingAhead } from "@/server/jobs/environments-ahead";
import { FIRST_TRAINING_RECIPES } from "./environments-ahead";

const recipe = (name: string, environmentReady: boolean, environmentId: string | null = `env-${name}`) => ({
  name,
  version: "1",
  description: "",
  module: name,
  dir: `/training/${name}`,
  jobs: [],
  environmentId,
  environmentReady,
});
const probe = (recipes: TProbe["recipes"]): Pick<TProbe, "recipes"> => ({ recipes });

describe("missingAhead", () => {
  it("names the first-training recipes whose environment is missing, in the order a training needs them", () => {
    const p = probe([recipe("export", false), recipe("tabular", false), recipe("data", true), recipe("llm-lora", false), recipe("evaluation", false)]);
    expect(missingAhead(FIRST_TRAINING_RECIPES, "t-order", p)).toEqual(["tabular", "evaluation", "export"]);
    expect(FIRST_TRAINING_RECIPES).not.toContain("llm-lora");
    expect(FIRST_TRAINING_RECIPES).toEqual(["data", "tabular", "evaluation", "export"]);
  });

  it("skips a recipe whose computer has no Python that can build it, and a computer not probed yet", () => {
    expect(missingAhead(FIRST_TRAINING_RECIPES, "t-nopython", probe([recipe("tabular", false, null)]))).toEqual([]);
    expect(missingAhead(FIRST_TRAINING_RECIPES, "t-none", null)).toEqual([]);
  });
});
