import { describe, expect, it } from "vitest";
import type { DeploymentPredictResponse } from "@/contracts/deployments/serving";
import { refusalOf } from "../test-support";
import { inferAnswer, requestedOutputs, ZInferResponse } from "./infer-answer";
import { parseInferRequest } from "./infer-request";

const release = { id: "r1", number: 3, version: 2 };
const CLASSIFIED: DeploymentPredictResponse = {
  predictions: [
    { prediction: "Adelie", probabilities: { Adelie: 0.9, Chinstrap: 0.06, Gentoo: 0.04 } },
    { prediction: "Gentoo", probabilities: { Adelie: 0.01, Chinstrap: 0.01, Gentoo: 0.98 } },
  ],
  release,
};
const REGRESSED: DeploymentPredictResponse = { predictions: [{ prediction: 3750 }, { prediction: 4100.5 }], release };
const request = (extra: object = {}) => parseInferRequest({ inputs: [{ name: "island", shape: [2], datatype: "BYTES", data: ["a", "b"] }], ...extra });
const answer = (extra: object, predicted: DeploymentPredictResponse) => {
  const r = request(extra);
  return ZInferResponse.parse(inferAnswer("species-api", r, requestedOutputs(r), predicted));
};

describe("an Open Inference v2 answer of a table's predictions", () => {
  it("answers a classifier's classes, probabilities (row-major) and their column names, the model and the request's id", () => {
    expect(answer({ id: "42" }, CLASSIFIED)).toEqual({
      model_name: "species-api",
      model_version: "2",
      id: "42",
      outputs: [
        { name: "predict", shape: [2], datatype: "BYTES", data: ["Adelie", "Gentoo"] },
        { name: "predict_proba", shape: [2, 3], datatype: "FP64", data: [0.9, 0.06, 0.04, 0.01, 0.01, 0.98] },
        { name: "classes", shape: [3], datatype: "BYTES", data: ["Adelie", "Chinstrap", "Gentoo"] },
      ],
    });
  });

  it("answers only the outputs a request names, in its order; a regression has predict (FP64) only", () => {
    expect(answer({ outputs: [{ name: "classes" }, { name: "predict" }] }, CLASSIFIED).outputs.map((o) => o.name)).toEqual(["classes", "predict"]);
    expect(answer({}, REGRESSED)).toEqual({ model_name: "species-api", model_version: "2", outputs: [{ name: "predict", shape: [2], datatype: "FP64", data: [3750, 4100.5] }] });
    expect(refusalOf(() => answer({ outputs: [{ name: "predict_proba" }] }, REGRESSED))?.fields).toEqual([{ path: "outputs[0].name", message: expect.stringMatching(/regression/) }]);
    expect(refusalOf(() => requestedOutputs(request({ outputs: [{ name: "output0" }] })))?.fields).toEqual([{ path: "outputs[0].name", message: 'no output named "output0" (outputs: predict, predict_proba, classes)' }]);
  });

  it("types integer and true/false classes", () => {
    const ints = { predictions: [{ prediction: 0, probabilities: { "0": 0.7, "1": 0.3 } }, { prediction: 1, probabilities: { "0": 0.2, "1": 0.8 } }], release };
    expect(answer({}, ints).outputs[0]).toMatchObject({ datatype: "INT64", data: [0, 1] });
    const bools = { predictions: [{ prediction: true, probabilities: { False: 0.2, True: 0.8 } }, { prediction: false, probabilities: { False: 0.6, True: 0.4 } }], release };
    expect(answer({}, bools).outputs[0]).toMatchObject({ datatype: "BOOL", data: [true, false] });
  });
});
