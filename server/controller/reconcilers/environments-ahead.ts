/**
 * This computer's first-training environments, prepared as soon as a probe shows them
 * missing (server/jobs/environments-ahead.ts): woken by the probe's target.changed, swept
 * now and then for a probe that landed while the loop was busy.
 */
import type { Db } from "@/server/db/client";
import { TABULAR } from "@/server/experiments/pipelines/tabular";
import { missingAhead, prepareAhead } from "@/server/jobs/environments-ahead";
import { targetsRepository } from "@/server/targets/targets.repository";
import { parseProbe, toTargetView } from "@/server/targets/targets.service";
import { defineReconciler } from "../define-reconciler";

/** What a first (tabular) training's chain runs, in the order it needs them: read from the chain itself. */
export const FIRST_TRAINING_RECIPES: readonly string[] = [...new Set(TABULAR.steps.map((s) => s.recipe))];

export const environmentsAhead = (db: Db, log: (line: string) => void, everyMs = 30_000) => {
  const thisComputer = async () => (await targetsRepository(db).list()).filter((t) => toTargetView(t).thisComputer);
  return defineReconciler({
    name: "environments ahead",
    everyMs,
    active: async () => (await thisComputer()).filter((t) => missingAhead(FIRST_TRAINING_RECIPES, t.id, parseProbe(t.probe)).length > 0),
    advance: async (id) => {
      const t = await targetsRepository(db).find(id);
      const probe = t && toTargetView(t).thisComputer ? parseProbe(t.probe) : null;
      if (probe) await prepareAhead(db, FIRST_TRAINING_RECIPES, id, probe, log);
    },
    wakeOn: (e) => (e.event.type === "target.changed" ? e.event.targetId : null),
  });
};
