/** Test helpers for the tabular pipeline's pure parts: a context and its steps by name. */
import type { InputOf } from "@/contracts/recipes";
import { ZExperimentSettings } from "../experiments.schema";
import { stepSpec as specIn } from "../pipeline";
import { TABULAR, TABULAR_STEPS, type TabularContext, type TabularStep } from "./tabular";

/** Every step finished, each with its own output hash. */
const ALL_OUTPUTS = Object.fromEntries(TABULAR_STEPS.map((s, i) => [s, String(i).padStart(64, "0")]));

/** A penguins experiment with `maxMinutes` of budget, all of it left, on a 2-CPU computer, every step's output at hand. */
export function tabularTestContext(maxMinutes: number, over: Partial<TabularContext> = {}): TabularContext {
  return {
    experimentId: "e1",
    opId: "op-123456",
    targetId: "t1",
    projectName: "P",
    experimentName: "E",
    datasetName: "penguins.csv",
    snapshotSha256: "a".repeat(64),
    holdouts: [],
    datasetFormat: { format: "csv" },
    settings: ZExperimentSettings.parse({ target: "species", task: "multiclass", metric: "accuracy", maxMinutes }),
    cpus: 2,
    freeCpus: 2,
    remainingSeconds: maxMinutes * 60,
    outputs: ALL_OUTPUTS,
    trainingSeconds: null,
    classLabels: null,
    trainedPositiveClass: null,
    ...over,
  };
}

export const stepSpec = (name: TabularStep) => specIn(TABULAR, name);

/** The train step's input, as the tabular.train contract types it. */
export function trainInput(c: TabularContext): InputOf<"tabular", "train"> {
  const s = stepSpec("train");
  if (s.recipe !== "tabular" || s.job !== "train") throw new Error(`the train step runs ${s.recipe}.${s.job}`);
  return s.input(c);
}
