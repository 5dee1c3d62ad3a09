import { describe, expect, it } from "vitest";
import { z } from "zod";
import { TABULAR_SPACE } from "@/contracts/searches/tabular-space";
import { testSearchSpec } from "@/server/testing/search-spec";
import { AGENT_TOOLS } from "./agent-tools";
import { searchDetail, searchSummary, spaceWords, validationResults, type SearchValidation } from "./search-mappers";

const spec = testSearchSpec(
  { objective: { metric: "accuracy", direction: "higher_is_better", minUsefulGain: 0 }, seed: 42, strategy: "agents" },
  { maxTrials: 2, maxWallMinutes: 4, perTrialMinutes: 1 },
);

const trial = (n: number, status: string, extra: object = {}) => ({
  id: `t${n}`,
  number: n,
  status,
  proposer: { kind: "agent" as const, name: "claude" },
  hypothesis: "smaller learning rate",
  params: { family: "GBM", "GBM.learning_rate": 0.05, "GBM.num_leaves": 31, "GBM.min_data_in_leaf": 10 },
  rejection: [] as string[],
  reservedSeconds: 60,
  usedSeconds: 30,
  validationValue: 0.98,
  reason: null,
  createdAt: new Date("2026-12-01T00:00:00Z"),
  endedAt: null,
  ...extra,
});

/** searches.validation's answer, plus what the owner's view holds: the final test scoring. */
const validation: SearchValidation = {
  id: "s1",
  projectId: "p1",
  name: "Search #1 — species",
  status: "completed",
  reason: "it ran its maximum number of trials",
  revision: 5,
  datasetId: "d1",
  targetId: "local",
  placement: null,
  spec,
  budget: { wallUsedSeconds: 100.4, wallBudgetSeconds: 240, finalReserveSeconds: 30, trialsBooked: 1, trialsLeft: 1 },
  best: { trialNumber: 1, validationValue: 0.98 },
  outcome: { kind: "candidate", trialNumber: 1, validationValue: 0.98, baselineValidationValue: 0.44, gain: 0.54, ended: "it ran its maximum number of trials" },
  trials: [trial(1, "succeeded"), trial(2, "proposed", { validationValue: null }), trial(3, "rejected", { rejection: ["GBM.learning_rate must be between 0.01 and 0.3 (got 5)."] })],
  createdAt: new Date("2026-12-01T00:00:00Z"),
  endedAt: new Date("2026-12-01T00:04:00Z"),
  baselineValidationValue: 0.44,
};
// The owner's view adds the test result; a mapper handed one by mistake must still drop it.
const view = Object.assign(validation, { final: { experimentId: "e9", candidate: { primaryValue: 0.97, partition: "test" }, baseline: { primaryValue: 0.45 } } });

function keysOf(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(keysOf);
  if (value && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => [k, ...keysOf(v)]);
  return [];
}

describe("search views for agents", () => {
  it("pass on validation scores and the budget left, and none of the final test scoring", () => {
    const d = searchDetail(view);
    expect(d).toMatchObject({
      id: "s1",
      strategy: "agents",
      budget: { maxTrials: 2, trialsBooked: 1, proposalsWaiting: 1, trialsLeft: 0, wallUsedSeconds: 100 },
      best: { trialNumber: 1, validationValue: 0.98 },
      outcome: { kind: "candidate", baselineValidationValue: 0.44 },
      trialCount: 3,
      createdAt: "2026-12-01T00:00:00.000Z",
    });
    expect(d.trials[2]!.rejection).toHaveLength(1);
    expect(d.space.map((p) => p.name)).toEqual(TABULAR_SPACE.params.map((p) => p.name));
    for (const out of [d, searchSummary(view), validationResults(view)]) {
      const keys = keysOf(out);
      for (const k of ["final", "candidate", "baseline", "receipt", "primaryValue", "projectId"]) expect(keys, k).not.toContain(k);
      expect(JSON.stringify(out)).not.toContain("test");
    }
  });

  it("give the baseline's validation score once a trial scored it, and say why not before", () => {
    expect(validationResults(view)).toMatchObject({ partition: "validation", baselineValidationValue: 0.44, baselineNote: null });
    expect(validationResults({ ...view, outcome: null, baselineValidationValue: 0.45 } as SearchValidation).baselineValidationValue).toBe(0.45);
    const running = validationResults({ ...view, outcome: null, baselineValidationValue: null } as SearchValidation);
    expect(running.baselineValidationValue).toBeNull();
    expect(running.baselineNote).toMatch(/once the first trial has been scored/);
    // Rejected proposals never ran: they have no place among the results.
    expect(running.trials.map((t) => t.number)).toEqual([1, 2]);
  });

  it("state the whole space in propose_experiment's description, from the declared space", () => {
    const words = spaceWords(TABULAR_SPACE);
    expect(words).toContain('family: one of "GBM", "CAT", "RF", "XT"');
    expect(words).toContain('GBM.learning_rate: a number from 0.01 to 0.3 (log scale), only when family is "GBM"');
    const propose = AGENT_TOOLS.find((t) => t.name === "propose_experiment")!;
    for (const p of TABULAR_SPACE.params) expect(propose.description).toContain(`${p.name}:`);
    expect(propose.description).toMatch(/maxTrials/);
    expect(propose.writes).toBe(true);
  });

  it("publish every input as a JSON Schema object and mark only the writing tools as writes", () => {
    for (const t of AGENT_TOOLS) expect(z.toJSONSchema(t.input), t.name).toMatchObject({ type: "object" });
    expect(AGENT_TOOLS.filter((t) => t.writes).map((t) => t.name).sort()).toEqual(["approve_promotion", "cancel_trial", "compare_on_holdout", "promote_version", "propose_experiment"]);
  });
});
