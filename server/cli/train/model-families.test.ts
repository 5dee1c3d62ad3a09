import { describe, expect, it } from "vitest";
import { ZExperimentSettings } from "@/server/experiments/experiments.schema";
import { parseModelFamilies } from "./model-families";

describe("--models", () => {
  it("reads model families in any case, as the experiment's hyperparameters", () => {
    const families = parseModelFamilies("gbm, CAT");
    expect(families).toEqual({ GBM: {}, CAT: {} });
    // The API takes them as they are.
    expect(ZExperimentSettings.parse({ target: "y", task: "binary", metric: "roc_auc", hyperparameters: families }).hyperparameters).toEqual(families);
  });

  it("refuses an unknown, repeated or empty choice, naming the families", () => {
    expect(() => parseModelFamilies("xgboost")).toThrow('--models: "XGBOOST" is not a model family. Choose from GBM (LightGBM), CAT (CatBoost), RF (random forest), XT (extra trees), KNN (nearest neighbours), LR (linear model).');
    expect(() => parseModelFamilies("GBM,gbm")).toThrow("--models names GBM twice.");
    expect(() => parseModelFamilies(" , ")).toThrow("--models needs at least one model family");
  });
});
