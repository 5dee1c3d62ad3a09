import { describe, expect, it } from "vitest";
import { ZStartSearchInput } from "@/server/searches/searches.schema";
import { ZWizardDraftData } from "@/server/drafts/drafts.schema";
import { trialMinutesFor } from "@/contracts/searches/search-spec";
import { searchStartInput } from "./search-start";

describe("the wizard's search start", () => {
  it("shares the budget over the first trials, at least a minute each and never more than the whole search", () => {
    expect(trialMinutesFor(3, 2)).toBe(1.5);
    expect(trialMinutesFor(60, 50)).toBe(15);
    expect(trialMinutesFor(2, 10)).toBe(1);
    expect(trialMinutesFor(1, 1)).toBe(1);
  });

  it("shares it over rounds of trials when several run at once", () => {
    // 4 trials, 2 at once: two rounds of 5 minutes in a 10-minute search.
    expect(trialMinutesFor(10, 4, 2)).toBe(5);
    // As many at once as trials: one round, each trial may take the whole search.
    expect(trialMinutesFor(10, 3, 3)).toBe(10);
    expect(trialMinutesFor(60, 50, 5)).toBe(15);
  });

  it("builds an input the server accepts from a draft, min gain and patience only when given", () => {
    const draft = ZWizardDraftData.parse({ datasetId: "d1", target: "species", task: "multiclass", metric: "accuracy", mode: "improve", maxMinutes: 3, maxTrials: 2 });
    const applied = { excludeColumns: ["id"], split: { strategy: "random" as const }, appliedActions: [] };
    const input = searchStartInput(draft, applied, { opId: "op-12345678", projectId: "p1", computerId: "t1" });
    expect(ZStartSearchInput.parse(input)).toMatchObject({ targetId: "t1", budget: { maxTrials: 2, maxWallMinutes: 3, perTrialMinutes: 1.5, parallelTrials: 1 }, minUsefulGain: 0, patience: null, excludeColumns: ["id"] });
    // Trials at once: never more than the trials, and each trial gets its round's share.
    const parallel = searchStartInput({ ...draft, maxMinutes: 10, maxTrials: 4, parallelTrials: 8 }, applied, { opId: "op-12345678", projectId: "p1", computerId: "t1" });
    expect(ZStartSearchInput.parse(parallel).budget).toEqual({ maxTrials: 4, maxWallMinutes: 10, perTrialMinutes: 10, parallelTrials: 4 });
    const tuned = searchStartInput({ ...draft, minUsefulGain: 0.01, patience: 3, maxTrials: 500 }, applied, { opId: "op-12345678", projectId: "p1", computerId: null });
    expect(ZStartSearchInput.parse(tuned)).toMatchObject({ minUsefulGain: 0.01, patience: 3, budget: { maxTrials: 200 } });
    expect("targetId" in tuned).toBe(false);
  });

  it("still reads a draft saved before min gain and patience existed", () => {
    expect(ZWizardDraftData.parse({ mode: "improve", maxMinutes: 5, maxTrials: 10 })).toMatchObject({ minUsefulGain: null, patience: null, parallelTrials: 1 });
  });
});
