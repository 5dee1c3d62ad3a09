/**
 * Promotion policies: each sweep advances every model with a policy (server/policies/
 * advance.ts): expiries, approved candidates carried out, new versions judged. A change to
 * a model (a registration, a promotion, a policy saved) wakes it at once.
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
    wakeOn: (e) => (e.event.type === "model.changed" ? e.event.modelId : null),
  });
