import { describe, expect, it } from "vitest";
import { foldEvent, type LiveTraining } from "./training-progress";

const fresh = (): LiveTraining => ({ step: 0, plannedSteps: null, trainLoss: [], evalLoss: [], tokensPerSecond: null, etaSeconds: null, resumedFromStep: null });
const line = (o: object) => JSON.stringify({ t: "2026-12-01T12:00:00.000Z", ...o });

describe("live training from a train job's events", () => {
  it("builds the loss curves, step, speed and time left from the recipe's metric, progress and phase events", () => {
    const live = fresh();
    for (const l of [
      line({ type: "phase", phase: "training", steps: 40, resumedFromStep: 12, trainableParameters: 1000 }),
      line({ type: "metric", name: "train_loss", step: 13, value: 2.5, tokensPerSecond: 110.5, learningRate: 0.001 }),
      line({ type: "progress", done: 13, total: 40, unit: "steps", etaSeconds: 54.2, tokensPerSecond: 110.5 }),
      line({ type: "metric", name: "eval_loss", step: 13, value: 2.9 }),
      line({ type: "metric", name: "train_loss", step: 14, value: 2.25, tokensPerSecond: 120 }),
      line({ type: "progress", done: 14, total: 40, unit: "steps", etaSeconds: 50, tokensPerSecond: 120 }),
    ]) {
      foldEvent(live, l);
    }
    expect(live).toEqual({
      step: 14,
      plannedSteps: 40,
      trainLoss: [{ step: 13, loss: 2.5 }, { step: 14, loss: 2.25 }],
      evalLoss: [{ step: 13, loss: 2.9 }],
      tokensPerSecond: 120,
      etaSeconds: 50,
      resumedFromStep: 12,
    });
  });

  it("skips lines that are not JSON and events of other shapes or metrics", () => {
    const live = fresh();
    foldEvent(live, "{not json");
    foldEvent(live, line({ type: "metric", name: "grad_norm", step: 3, value: 1 }));
    foldEvent(live, line({ type: "metric", name: "train_loss", step: "3", value: 1 }));
    foldEvent(live, line({ type: "log", message: "hello" }));
    foldEvent(live, line({ type: "phase", phase: "preparing_data", step: "tokenise" }));
    expect(live).toEqual(fresh());
  });
});
