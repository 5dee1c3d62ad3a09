import { describe, expect, it } from "vitest";
import type { SearchSpec } from "@/contracts/searches/search-spec";
import { slurmQueueSeconds } from "@/server/experiments/chain-budget";
import { testSearchSpec } from "@/server/testing/search-spec";
import { arrayMember, openRound, roundSize } from "./search-rounds";

const spec = (budget: Partial<SearchSpec["budget"]>): SearchSpec => testSearchSpec({}, { maxTrials: 20, maxWallMinutes: 60, parallelTrials: 2, ...budget });
const trial = (number: number, round?: { first: number; size: number }) => ({ number, proposer: JSON.stringify({ kind: "planner", sampler: "random", ...(round ? { round } : {}) }) });

describe("a search's rounds of trials (a Slurm job array each)", () => {
  it("plan two trials for each run at once, no more than the trial count leaves, one when trials run one at a time", () => {
    expect(roundSize(spec({}), 0, 0, null)).toBe(4);
    expect(roundSize(spec({ parallelTrials: 3 }), 0, 0, null)).toBe(6);
    expect(roundSize(spec({ maxTrials: 5 }), 3, 0, null)).toBe(2);
    expect(roundSize(spec({ parallelTrials: 1 }), 0, 0, null)).toBe(1);
  });

  it("plan no more waves of K trials than the wall budget holds", () => {
    // 10 minutes, 30 s kept for the final scoring, 2 minutes a trial: four waves fit (more than 2K).
    expect(roundSize(spec({ maxWallMinutes: 10, parallelTrials: 4 }), 0, 0, null)).toBe(8);
    // 5 of them used: 270 s left, two waves of 2-minute trials, one of 3-minute trials.
    expect(roundSize(spec({ maxWallMinutes: 10, parallelTrials: 4 }), 0, 300, null)).toBe(8);
    expect(roundSize(spec({ maxWallMinutes: 10, parallelTrials: 4, perTrialMinutes: 3 }), 0, 300, null)).toBe(4);
    expect(roundSize(spec({ maxWallMinutes: 10 }), 0, 0, null)).toBe(4);
  });

  it("keep a round open until it has as many trials as it plans", () => {
    expect(openRound([])).toBeNull();
    expect(openRound([trial(1)])).toBeNull();
    expect(openRound([trial(1, { first: 1, size: 3 }), trial(2, { first: 1, size: 3 })])).toEqual({ first: 1, size: 3 });
    expect(openRound([trial(1, { first: 1, size: 2 }), trial(2, { first: 1, size: 2 })])).toBeNull();
    expect(openRound([trial(1, { first: 1, size: 2 }), trial(2, { first: 1, size: 2 }), trial(3, { first: 3, size: 2 })])).toEqual({ first: 3, size: 2 });
  });

  it("make each trial of a round one task of its array: the round's trials booked, K at once", () => {
    const r = { first: 5, size: 3 };
    const trials = [trial(5, r), trial(6, r), trial(7, r)];
    expect(arrayMember("s1", trials[1]!, trials, 2)).toEqual({ group: "search-s1-round-5", size: 3, limit: 2, index: 1 });
    // A round the search stopped planning early is an array of the trials it has.
    expect(arrayMember("s1", trials[0]!, trials.slice(0, 2), 2)).toEqual({ group: "search-s1-round-5", size: 2, limit: 2, index: 0 });
    expect(arrayMember("s1", trial(4), trials, 2)).toBeNull();
  });
});

describe("the time a training waits in Slurm's queue", () => {
  const createdAt = new Date("2026-12-08T00:00:00Z");
  const now = new Date("2026-12-08T00:01:00Z");
  it("is not spent of the experiment's budget: until it starts, or from submission to start", () => {
    expect(slurmQueueSeconds({ slurm: "{}", slurmArray: null, createdAt, startedAt: null }, now)).toBe(60);
    expect(slurmQueueSeconds({ slurm: null, slurmArray: "{}", createdAt, startedAt: new Date("2026-12-08T00:00:20Z") }, now)).toBe(20);
  });
  it("is nothing for a job that does not go to Slurm", () => {
    expect(slurmQueueSeconds({ slurm: null, slurmArray: null, createdAt, startedAt: null }, now)).toBe(0);
    expect(slurmQueueSeconds(undefined, now)).toBe(0);
  });
});
