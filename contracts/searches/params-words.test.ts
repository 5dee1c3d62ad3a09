import { describe, expect, it } from "vitest";
import { paramsWords } from "./params-words";

describe("paramsWords", () => {
  it("puts the family first and drops its prefix from its own settings", () => {
    expect(paramsWords({ family: "GBM", "GBM.learning_rate": 0.0512345, "GBM.num_leaves": 31 })).toBe("GBM learning_rate=0.05123 num_leaves=31");
  });
  it("keeps a setting of another prefix whole, and needs no family", () => {
    expect(paramsWords({ "RF.max_features": "sqrt", drop: true })).toBe("RF.max_features=sqrt drop=true");
  });
});
