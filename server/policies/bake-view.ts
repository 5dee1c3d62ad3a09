/** What a page, the CLI and the phone show of a promotion under way: the switch, the bake's progress, a revert. */
import { ZCandidateBaking, ZCandidateReverting, ZCandidateSwitching, type BakePlan } from "@/contracts/lifecycles";
import type { Db } from "@/server/db/client";
import { parseStoredJson } from "@/server/db/stored-json";
import { scheduleNow } from "@/server/schedules/clock";
import { bakeFigures } from "./bake-step";
import { policiesRepository } from "./policies.repository";

export interface BakeView {
  candidateId: string;
  version: number;
  state: "switching" | "baking" | "reverting";
  /** In words: what it waits for, or why it goes back. */
  reason: string | null;
  deployment: { id: string; name: string };
  incumbentVersion: number;
  /** Null while the deployment has not served the candidate yet. */
  startedAt: string | null;
  requests: { seen: number; needed: number };
  minutes: { elapsed: number; needed: number };
  failures: number;
  p95Ms: number | null;
  limits: BakePlan["limits"];
  limitsFrom: BakePlan["limitsFrom"];
  /** After this, too little traffic keeps or reverts the candidate (`lowTraffic`); null before the bake began. */
  deadline: string | null;
  lowTraffic: BakePlan["lowTraffic"];
}

/** The model's promotion under way (at most one: a second waits for it), or null. */
export async function bakeView(db: Db, modelId: string, now = scheduleNow()): Promise<BakeView | null> {
  const [c] = await policiesRepository(db).underWay(modelId);
  if (!c) return null;
  const state = c.state as BakeView["state"];
  const data = state === "switching" ? parseStoredJson(ZCandidateSwitching, c.stateData) : state === "baking" ? parseStoredJson(ZCandidateBaking, c.stateData) : parseStoredJson(ZCandidateReverting, c.stateData);
  if (!data) return null;
  const [version, d] = await Promise.all([
    db.modelVersion.findUnique({ where: { id: c.versionId }, select: { number: true } }),
    db.deployment.findUnique({ where: { id: data.deploymentId }, select: { id: true, name: true } }),
  ]);
  const baking = "startedAt" in data ? data : null;
  const started = baking ? new Date(baking.startedAt) : null;
  // A revert shows what the bake had seen when it ended.
  const seen = "figures" in data && data.figures ? data.figures : baking ? await bakeFigures(db, baking.releaseId) : { requests: 0, failures: 0, p95Ms: null };
  return {
    candidateId: c.id,
    version: version?.number ?? 0,
    state,
    reason: c.reason,
    deployment: d ?? { id: data.deploymentId, name: "(deleted)" },
    incumbentVersion: data.incumbentVersion,
    startedAt: started?.toISOString() ?? null,
    requests: { seen: seen.requests, needed: data.plan.requests },
    minutes: { elapsed: started ? Math.max(0, Math.floor((now.getTime() - started.getTime()) / 60_000)) : 0, needed: data.plan.minutes },
    failures: seen.failures,
    p95Ms: seen.p95Ms,
    limits: data.plan.limits,
    limitsFrom: data.plan.limitsFrom,
    deadline: started ? new Date(started.getTime() + data.plan.deadlineHours * 3600_000).toISOString() : null,
    lowTraffic: data.plan.lowTraffic,
  };
}
