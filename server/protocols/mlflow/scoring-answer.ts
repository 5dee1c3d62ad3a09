/**
 * The answer of MLflow's `/invocations`: `{"predictions": [...]}`, one value per row in order
 * (the predicted class or value), which is what MLflow's clients read
 * (`PredictionsResponse.get_predictions()` makes a DataFrame of it). A classifier's class
 * probabilities go beside it as `probabilities`, one `{class: probability}` per row: an extra
 * key, as MLflow's scoring server adds metadata keys, so clients that read only `predictions`
 * are not disturbed.
 */
import { z } from "zod";
import type { DeploymentPredictResponse } from "@/contracts/deployments/serving";

export const ZScoringAnswer = z.strictObject({
  predictions: z.array(z.union([z.string(), z.number(), z.boolean()])).describe("The predicted class or value of each row, in order"),
  probabilities: z.array(z.record(z.string(), z.number())).optional().describe("A classifier's probability of each class, one object per row"),
});
export type ScoringAnswer = z.infer<typeof ZScoringAnswer>;

export function scoringAnswer(answer: DeploymentPredictResponse): ScoringAnswer {
  const predictions = answer.predictions.map((p) => p.prediction);
  const classifier = answer.predictions.length > 0 && answer.predictions.every((p) => p.probabilities);
  return classifier ? { predictions, probabilities: answer.predictions.map((p) => p.probabilities!) } : { predictions };
}
