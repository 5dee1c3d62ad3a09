/**
 * This computer's first-training environments, prepared as soon as a probe shows them
 * missing (server/jobs/environments-ahead.ts): woken by the probe's target.changed, swept
 * now and then for a probe that landed while the loop was busy.
 */
import type { Db } from "@/server/db/client";
import { missingAhead, prepareAhead } from "@/server/jobs/environments-ahead";
import { targetsRepository } from "@/server/targets/targets.repository";
import { parseProbe, toTargetView } from "@/server/targets/targets.service";
import { defineReconciler } from "../define-reconciler";

export const environmentsAhead = (db: Db, log: (line: string) => void, everyMs = 30_000) => {
  const thisComputer = async () => (await targetsRepository(db).list()).filter((t) => toTargetView(t).thisComputer);
  return defineReconciler({
    name: "environments ahead",
    everyMs,
    active: async () => (await thisComputer()).filter((t) => missingAhead(t.id, parseProbe(t.probe)).length > 0),
    advance: async (id) => {
      const t = await targetsRepository(db).find(id);
      const probe = t && toTargetView(t).thisComputer ? parseProbe(t.probe) : null;
      if (probe) await prepareAhead(db, id, probe, log);
    },
    wakeOn: (e) => (e.event.type === "target.changed" ? e.event.targetId : null),
  });
};
