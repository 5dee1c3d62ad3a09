/**
 * The inference response of the Open Inference Protocol v2 for a table's predictions, with
 * the output names MLServer's scikit-learn runtime uses: `predict` (shape [N]: the predicted
 * class or value of each row; BYTES for text classes, BOOL, INT64 for integer classes, FP64
 * for a regression) and, for a classifier, `predict_proba` (shape [N, C], FP64, row-major)
 * with `classes` (shape [C], BYTES) naming its columns in order. A request's `outputs` picks
 * which are answered (default: all the model has).
 */
import { z } from "zod";
import type { DeploymentPredictResponse } from "@/contracts/deployments/serving";
import { fieldsRefusal } from "../table-request";
import { DATATYPES, type InferRequest } from "./infer-request";

export const OUTPUT_NAMES = ["predict", "predict_proba", "classes"] as const;
type OutputName = (typeof OUTPUT_NAMES)[number];

export const ZResponseOutput = z.strictObject({
  name: z.enum(OUTPUT_NAMES),
  shape: z.array(z.int().nonnegative()),
  datatype: z.enum(DATATYPES),
  data: z.array(z.union([z.string(), z.number(), z.boolean()])),
});
export const ZInferResponse = z.strictObject({
  model_name: z.string().describe("The deployment's name"),
  model_version: z.string().describe("The registered model version that answered"),
  id: z.string().optional().describe("The request's id, when it sent one"),
  outputs: z.array(ZResponseOutput),
});
export type InferResponse = z.infer<typeof ZInferResponse>;
type Output = z.infer<typeof ZResponseOutput>;

/** The outputs a request asks for (all when it names none), or BAD_INPUT naming one this protocol route does not have. */
export function requestedOutputs(request: InferRequest): OutputName[] | null {
  if (!request.outputs) return null;
  const fields = request.outputs.flatMap((o, k) => ((OUTPUT_NAMES as readonly string[]).includes(o.name) ? [] : [{ path: `outputs[${k}].name`, message: `no output named "${o.name}" (outputs: ${OUTPUT_NAMES.join(", ")})` }]));
  if (fields.length) throw fieldsRefusal("The request asks for an output the model does not have", fields);
  return request.outputs.map((o) => o.name as OutputName);
}

function predictOutput(values: (string | number | boolean)[], classifier: boolean): Output {
  const shape = [values.length];
  if (values.every((v) => typeof v === "string")) return { name: "predict", shape, datatype: "BYTES", data: values };
  if (values.every((v) => typeof v === "boolean")) return { name: "predict", shape, datatype: "BOOL", data: values };
  if (values.every((v) => typeof v === "number")) return { name: "predict", shape, datatype: classifier && values.every(Number.isInteger) ? "INT64" : "FP64", data: values };
  return { name: "predict", shape, datatype: "BYTES", data: values.map(String) };
}

export function inferAnswer(modelName: string, request: InferRequest, asked: OutputName[] | null, answer: DeploymentPredictResponse): InferResponse {
  const n = answer.predictions.length;
  const classifier = n > 0 && answer.predictions.every((p) => p.probabilities);
  const classes = classifier ? Object.keys(answer.predictions[0]!.probabilities!) : [];
  const all: Partial<Record<OutputName, Output>> = { predict: predictOutput(answer.predictions.map((p) => p.prediction), classifier) };
  if (classifier) {
    all.predict_proba = { name: "predict_proba", shape: [n, classes.length], datatype: "FP64", data: answer.predictions.flatMap((p) => classes.map((c) => p.probabilities![c] ?? 0)) };
    all.classes = { name: "classes", shape: [classes.length], datatype: "BYTES", data: classes };
  }
  const missing = (asked ?? []).map((name, k) => ({ name, k })).filter(({ name }) => !all[name]);
  if (missing.length) throw fieldsRefusal("The request asks for an output the model does not have", missing.map(({ name, k }) => ({ path: `outputs[${k}].name`, message: `"${name}" is a classifier's output; this model is a regression (outputs: predict)` })));
  const outputs = (asked ?? (Object.keys(all) as OutputName[])).map((name) => all[name]!);
  return { model_name: modelName, model_version: String(answer.release.version), ...(request.id === undefined ? {} : { id: request.id }), outputs };
}
