/**
 * Deploy: a version (pinned) or an alias (followed) of a registered model on a computer.
 * Refused with the reason before anything is written: a version without a verified export,
 * an alias that points nowhere, an unknown computer, a name already used in the project, a
 * LoRA fine-tune on demand or without its base model.
 */
import type { ServingKind } from "@/contracts/deployments/serving";
import type { Db } from "@/server/db/client";
import { badInput, conflict } from "@/server/errors";
import type { Actor } from "@/server/registry/registry.schema";
import { findModel } from "@/server/registry/registry-views";
import { ZCreateDeploymentInput, type DeploymentMode, type TCreateDeploymentInput } from "./deployments.schema";
import { versionByAlias, versionByNumber } from "./pick-release";
import { ON_DEMAND_LLM_REFUSAL, serveSpecOf, servingKindOf } from "./release-kind";
import { PROBE_MAX_AGE_MS } from "@/server/jobs/jobs.service";
import { targetsService } from "@/server/targets/targets.service";
import { ZDeploymentLoading } from "@/contracts/lifecycles";
import { deploymentChanged } from "./deployment-store";
import { deploymentsRepository } from "./deployments.repository";

const nameKey = (name: string) => name.trim().toLowerCase();

/** A budget the computer cannot give would leave the serving job waiting for memory forever. */
async function checkMemoryBudget(db: Db, targetId: string, memoryGb: number): Promise<void> {
  const { target, probe } = await targetsService(db).freshProbe(targetId, PROBE_MAX_AGE_MS);
  if (memoryGb > probe.capacity.ramGb) {
    throw badInput(`A memory budget of ${memoryGb} GB is more than "${target.name}" has (${probe.capacity.ramGb.toFixed(1)} GB); give at most that.`, { code: "memory_too_large", fields: [{ path: "memoryGb", message: `at most ${probe.capacity.ramGb.toFixed(1)}` }] });
  }
}

/** `trained_here`: it must run where the version was trained (on demand, or an LLM's base model). */
async function computerFor(db: Db, name: string | undefined, versionTargetId: string, where: DeploymentMode | "trained_here") {
  if (name === undefined) return versionTargetId;
  const targets = await deploymentsRepository(db).computersInUse();
  const found = targets.find((t) => t.name === name);
  if (!found) throw badInput(`There is no computer "${name}" (there are: ${targets.map((t) => t.name).join(", ") || "none"}).`, { code: "unknown_computer" });
  // An on-demand request is a predict job that reads the trained model by hash where it was trained.
  if (where !== "resident" && found.id !== versionTargetId) {
    const home = targets.find((t) => t.id === versionTargetId)?.name ?? versionTargetId;
    const what = where === "on_demand" ? "An on-demand deployment" : "A fine-tune's deployment (its base model stays where it was fine-tuned)";
    throw badInput(`${what} runs where the version was trained ("${home}"), not on "${name}".`, { code: "wrong_computer" });
  }
  return found.id;
}

/**
 * The mode asked for, else the kind's own (on demand for a tabular model, resident for an
 * LLM); an LLM on demand, or on another computer than its fine-tune's, is refused.
 */
function modeFor(kind: ServingKind, asked: DeploymentMode | undefined): DeploymentMode {
  if (kind === "llm" && asked === "on_demand") throw badInput(ON_DEMAND_LLM_REFUSAL, { code: "resident_only" });
  return asked ?? (kind === "llm" ? "resident" : "on_demand");
}

/** Writes the deployment (state `loading`) with its first release; starting it is the caller's. */
export async function createDeployment(db: Db, raw: TCreateDeploymentInput, actor: Actor): Promise<string> {
  const input = ZCreateDeploymentInput.parse(raw);
  const model = await findModel(db, input.modelId);
  const alias = "alias" in input.what ? input.what.alias : null;
  const version = alias ? await versionByAlias(db, model.id, alias) : await versionByNumber(db, model.id, (input.what as { version: number }).version);
  const kind = servingKindOf(version.evidence);
  const mode = modeFor(kind, input.mode);
  // The fine-tune's base model is an output of its import_base job, kept where it was trained.
  const targetId = await computerFor(db, input.computer, version.targetId, kind === "llm" ? "trained_here" : mode);
  // A version without its own serving record (older, its experiment gone) is refused here, not at its first request.
  await serveSpecOf(db, version);
  if (mode === "resident") {
    if (input.memoryGb !== undefined) await checkMemoryBudget(db, targetId, input.memoryGb);
  } else if (input.memoryGb !== undefined) {
    throw badInput("A memory budget is for a resident deployment's serving process; an on-demand request runs a short predict job with its own. Deploy with --mode resident, or leave the budget out.", { code: "memory_on_demand" });
  } else if (input.idleUnloadMinutes !== undefined) {
    throw badInput("An idle time unloads a resident deployment's serving process; an on-demand deployment holds nothing between requests. Deploy with --mode resident, or leave it out.", { code: "idle_on_demand" });
  }
  const name = input.name ?? `${model.name}${alias ? `-${alias}` : `-v${version.number}`}`;
  const taken = await deploymentsRepository(db).findByNameKey(model.projectId, nameKey(name));
  if (taken) throw conflict(`A deployment named "${taken.name}" already exists in this project; choose another name (--name).`, { code: "name_taken" });
  const id = await db.$transaction(async (tx) => {
    const repo = deploymentsRepository(tx);
    const d = await repo.create({ projectId: model.projectId, name, nameKey: nameKey(name), mode, targetId, modelId: model.id, followsAlias: alias, state: "loading", stateData: JSON.stringify(ZDeploymentLoading.parse({ cause: "start" })), memoryGb: input.memoryGb ?? null, idleUnloadMinutes: input.idleUnloadMinutes ?? null });
    const why = alias ? `deployed following alias "${alias}" (version ${version.number})` : `deployed version ${version.number}`;
    const release = await repo.addRelease({ deploymentId: d.id, number: 1, versionId: version.id, kind: "create", why, actor: JSON.stringify(actor) });
    await repo.setCurrentRelease(d.id, release.id);
    return d.id;
  });
  await deploymentChanged(db, id);
  return id;
}
