import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { withoutNoise } from "./log-noise";

// A real train log of the tabular recipe on penguins (quick mode, CPU-only environment without
// PyTorch), downloaded with "Download the full log" from the e2e run.
const REAL = readFileSync(path.join(import.meta.dirname, "testdata", "autogluon-train.log"), "utf8");

// Lines as AutoGluon 1.x writes them on a CPU-only environment (autogluon/common/utils/resource_utils.py,
// autogluon/core/models/abstract/abstract_model.py), between lines of the same train log that must stay.
const LOG = [
  "Beginning AutoGluon training ... Time limit = 54s",
  "\tFailed to import torch or check CUDA availability!Please ensure you have the correct version of PyTorch installed by running `pip install -U torch`",
  "Fitting model: LightGBM ... Training model for up to 53.4s of the 53.4s of remaining time.",
  "\t0.9792\t = Validation score   (accuracy)",
  "Deleting model KNeighborsDist. All files under /tmp/trainyard-e2e-x/worker/jobs/j_01HZ/work/autogluon/models/KNeighborsDist/ will be removed.",
  "Deleting model NeuralNetTorch. All files under /home/me/.trainyard/worker/jobs/abc/out/predictor/models/NeuralNetTorch will be removed.",
  "AutoGluon training complete, total runtime = 12.3s ... Best model: WeightedEnsemble_L2",
].join("\n");

describe("recipe noise in the user's log view", () => {
  it("leaves only AutoGluon's own story in a real train log", () => {
    const clean = withoutNoise(REAL);
    expect(REAL).toContain("Failed to import torch or check CUDA availability");
    expect(REAL).toContain("will be removed.");
    expect(clean.lines.join("\n")).not.toMatch(/Failed to import torch|will be removed/);
    expect(clean.hidden).toBe(REAL.split("\n").filter((l) => /Failed to import torch|^Deleting model .* will be removed\.$/.test(l)).length);
    expect(clean.lines).toContain("Clone: Keeping minimum set of models required to predict with best model 'WeightedEnsemble_L2'...");
    expect(clean.lines.some((l) => l.startsWith("Cloned TabularPredictor located in"))).toBe(true);
  });

  it("hides the CPU-only torch probe and the internal model deletions, and counts them", () => {
    const clean = withoutNoise(LOG);
    expect(clean.hidden).toBe(3);
    expect(clean.lines).toEqual([
      "Beginning AutoGluon training ... Time limit = 54s",
      "Fitting model: LightGBM ... Training model for up to 53.4s of the 53.4s of remaining time.",
      "\t0.9792\t = Validation score   (accuracy)",
      "AutoGluon training complete, total runtime = 12.3s ... Best model: WeightedEnsemble_L2",
    ]);
  });

  it("keeps a deletion that is not AutoGluon's own clean-up under the job folder, and real errors", () => {
    const user = "Deleting model cache. All files under /data/models will be removed.";
    const err = "ValueError: Failed to import sklearn";
    expect(withoutNoise([user, err].join("\n")).lines).toEqual([user, err]);
    expect(withoutNoise("").hidden).toBe(0);
  });
});
