/**
 * Deployments: each one that serves, moves, follows an alias or has a link in doubt is a
 * row (server/deployments/deployments-reconcile.ts decides what it needs). Its serving
 * job's change, or its model's aliases moving, advances it at once.
 */
import type { Db } from "@/server/db/client";
import { deploymentsConcerned, deploymentsToReconcile, reconcileDeployment } from "@/server/deployments/deployments-reconcile";
import { defineReconciler } from "../define-reconciler";

export const deployments = (db: Db, everyMs: number) =>
  defineReconciler({
    name: "deployments",
    everyMs,
    active: () => deploymentsToReconcile(db),
    advance: (id) => reconcileDeployment(db, id, (line) => console.error(line)),
    wakeOn: (e) => deploymentsConcerned(db, e.event),
  });
