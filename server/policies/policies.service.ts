/**
 * Promotion policies (issue 32): set and show a model's policy, and the owner's approve or
 * reject of a waiting candidate. Approving carries the promotion out at once (carry-out.ts);
 * the reconciler does the same for automatic approvals and after a restart.
 */
import type { Principal } from "@/server/auth/principal";
import { getDb, type Db } from "@/server/db/client";
import { badInput, conflict, notFound } from "@/server/errors";
import { publish } from "@/server/events/bus";
import { actorOf } from "@/server/registry/actor";
import { findModel } from "@/server/registry/registry-views";
import { bakeView, type BakeView } from "./bake-view";
import { carryOut } from "./carry-out";
import { moveCandidate } from "./candidate-store";
import { ZCandidateEvidence, type CandidateEvidence } from "./evidence";
import { policiesRepository } from "./policies.repository";
import { policySettings, ZDecideInput, ZModelIdInput, ZSetPolicyInput, type PolicySettings, type TDecideInput, type TSetPolicyInput } from "./policies.schema";

export interface CandidateView {
  id: string;
  version: number;
  state: string;
  reason: string | null;
  evidence: CandidateEvidence;
  expiresAt: string;
  createdAt: string;
}

/** The policy with its settings (policies.schema.ts: the bake's terms, bake-judge.ts; the size gate, judge.ts). */
export interface PolicyView extends PolicySettings {
  modelId: string;
  modelName: string;
  mode: "approval" | "automatic";
  deployment: { id: string; name: string; state: string; followsAlias: string | null } | null;
  watchingSince: string;
  revision: number;
  /** Candidates waiting for the owner, oldest first, with what the gates found. */
  pending: CandidateView[];
  /** The last 20 candidates of every state, newest first. */
  candidates: CandidateView[];
  /** The promotion under way: the deployment's switch to it, its bake, or its revert; null when none is. */
  bake: BakeView | null;
}

export function policiesService(db: Db = getDb()) {
  const repo = policiesRepository(db);

  async function candidateViews(modelId: string) {
    const rows = await repo.candidates(modelId);
    const numbers = new Map((await db.modelVersion.findMany({ where: { id: { in: rows.map((r) => r.versionId) } }, select: { id: true, number: true } })).map((v) => [v.id, v.number]));
    return rows.map(
      (c): CandidateView => ({
        id: c.id,
        version: numbers.get(c.versionId) ?? 0,
        state: c.state,
        reason: c.reason,
        evidence: ZCandidateEvidence.parse(JSON.parse(c.evidence)),
        expiresAt: c.expiresAt.toISOString(),
        createdAt: c.createdAt.toISOString(),
      }),
    );
  }

  /** The model's policy, or null when it has none (the page asks this). */
  async function find(raw: { modelId: string }): Promise<PolicyView | null> {
    const { modelId } = ZModelIdInput.parse(raw);
    const model = await findModel(db, modelId);
    const p = await repo.policyOf(modelId);
    if (!p) return null;
    const d = p.deploymentId ? await db.deployment.findUnique({ where: { id: p.deploymentId }, select: { id: true, name: true, state: true, followsAlias: true } }) : null;
    const all = await candidateViews(modelId);
    return {
      modelId,
      modelName: model.name,
      mode: p.mode as PolicyView["mode"],
      deployment: d,
      ...policySettings(p),
      watchingSince: p.watchingSince.toISOString(),
      revision: p.revision,
      pending: all.filter((c) => c.state === "pending").reverse(),
      candidates: all.slice(0, 20),
      bake: await bakeView(db, modelId),
    };
  }

  /** The model's policy; NOT_FOUND when it has none (the CLI's `policies show`). */
  async function show(raw: { modelId: string }): Promise<PolicyView> {
    const found = await find(raw);
    if (!found) throw notFound(`"${(await findModel(db, ZModelIdInput.parse(raw).modelId)).name}" has no promotion policy: set one with trainyard policies set.`);
    return found;
  }

  async function set(raw: TSetPolicyInput): Promise<PolicyView> {
    const input = ZSetPolicyInput.parse(raw);
    const model = await findModel(db, input.modelId);
    if (input.deploymentId) {
      const d = await db.deployment.findUnique({ where: { id: input.deploymentId } });
      if (!d || d.modelId !== model.id) throw notFound(`"${model.name}" has no deployment ${input.deploymentId}.`);
      if (d.followsAlias !== "selected") {
        throw badInput(`Deployment "${d.name}" serves a pinned version, so a promotion would not reach it: deploy ${model.name}@selected to have a deployment follow the policy's promotions.`, { code: "not_following" });
      }
    }
    const { modelId: _modelId, ...fields } = input;
    await db.promotionPolicy.upsert({ where: { modelId: model.id }, create: { modelId: model.id, ...fields }, update: { ...fields, revision: { increment: 1 } } });
    publish({ type: "model.changed", modelId: model.id, projectId: model.projectId });
    return show({ modelId: model.id });
  }

  async function pendingOf(input: TDecideInput) {
    const c = await repo.candidate(input.candidateId);
    if (!c || c.modelId !== input.modelId) throw notFound(`This model has no promotion candidate ${input.candidateId}.`);
    if (c.state !== "pending") throw conflict(`Candidate ${c.id} is ${c.state}, not waiting for a decision.`, { code: "not_pending", state: c.state });
    return c;
  }

  return {
    find,
    show,
    set,
    async approve(raw: TDecideInput, principal: Principal): Promise<PolicyView> {
      const input = ZDecideInput.parse(raw);
      const c = await pendingOf(input);
      const actor = actorOf(principal);
      await moveCandidate(db, c.id, "approved", input.reason ?? `approved by ${actor.name}`, { patch: { decidedBy: JSON.stringify(actor) } });
      await carryOut(db, c.id);
      return show({ modelId: input.modelId });
    },
    async reject(raw: TDecideInput, principal: Principal): Promise<PolicyView> {
      const input = ZDecideInput.parse(raw);
      const c = await pendingOf(input);
      const actor = actorOf(principal);
      await moveCandidate(db, c.id, "rejected", input.reason ?? `rejected by ${actor.name}`, { patch: { decidedBy: JSON.stringify(actor) } });
      return show({ modelId: input.modelId });
    },
  };
}
