/**
 * Promotion policies: each sweep advances every model with a policy (server/policies/
 * advance.ts): expiries, promotions under way stepped (the switch, the bake, a revert),
 * approved candidates carried out, new versions judged. A change to a model (a registration,
 * a promotion, a policy saved) or to a policy's deployment (a switch that ended, a serving
 * process that failed) wakes it at once.
 */
import type { Db } from "@/server/db/client";
import { advancePolicy } from "@/server/policies/advance";
import { policiesRepository } from "@/server/policies/policies.repository";
import { defineReconciler } from "../define-reconciler";

export const policies = (db: Db, everyMs = 5000) =>
  defineReconciler({
    name: "promotion policies",
    everyMs,
    active: () => policiesRepository(db).modelsWithPolicy(),
    advance: (modelId) => advancePolicy(db, modelId),
    wakeOn: async (e) => {
      if (e.event.type === "model.changed") return e.event.modelId;
      if (e.event.type !== "deployment.changed") return null;
      return (await policiesRepository(db).policyOnDeployment(e.event.deploymentId))?.modelId ?? null;
    },
  });
