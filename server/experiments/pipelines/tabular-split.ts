/**
 * The split step every tabular chain starts with (a plain training, a search's trials, the
 * baseline's test scoring): its input and the operation id that lets experiments on the
 * same data share one split job. Pure: no I/O here.
 */
import { createHash } from "node:crypto";
import type { InputOf, TableFormat } from "@/contracts/recipes";
import { sha256Ref } from "@/contracts/worker/refs";
import { tableHoldouts, type PinnedHoldouts } from "@/server/experiments/pinned-holdouts";
import type { TExperimentSettings } from "../experiments.schema";

/** What a split depends on: the snapshot, its format, the settings and the pinned holdouts; and where it runs. */
export interface SplitFacts {
  snapshotSha256: string;
  /** The computer the split runs on: its output stays in that computer's store, where the next steps read it. */
  targetId: string;
  datasetFormat: TableFormat;
  settings: TExperimentSettings;
  holdouts: PinnedHoldouts;
}

function splitSettings(s: TExperimentSettings) {
  return {
    strategy: s.split.strategy,
    seed: s.seed,
    ...(s.split.strategy === "group" ? { groupColumn: s.split.column } : {}),
    ...(s.split.strategy === "time" ? { timeColumn: s.split.column } : {}),
  };
}

/**
 * Every experiment on the same computer, snapshot, target, split settings and reserved
 * holdouts shares one split job. Not across computers: the split's output is read from the
 * store of the computer it ran on, which a job on another computer cannot reach.
 */
export const splitOpId = (c: SplitFacts) => {
  const same = [c.snapshotSha256, c.settings.target, c.settings.task, splitSettings(c.settings), tableHoldouts(c.holdouts).map((h) => h.sha256), c.targetId];
  return `split:${createHash("sha256").update(JSON.stringify(same)).digest("hex")}`;
};

const holdoutsInput = (held: ReturnType<typeof tableHoldouts>) => (held.length ? { holdouts: held.map((h) => ({ dataset: sha256Ref(h.sha256), datasetFormat: h.format })) } : {});

export const splitInput = (c: SplitFacts): InputOf<"data", "split"> => ({
  dataset: sha256Ref(c.snapshotSha256),
  datasetFormat: c.datasetFormat,
  snapshotSha256: c.snapshotSha256,
  target: c.settings.target,
  task: c.settings.task,
  ...splitSettings(c.settings),
  ...holdoutsInput(tableHoldouts(c.holdouts)),
});
