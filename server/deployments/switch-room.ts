/**
 * Whether a resident deployment's computer holds two of its releases at once. Only then
 * does a switch load the candidate beside the current release (no failed request);
 * otherwise it unloads the current one first, a short downtime its page warns of before
 * the switch. Room is the computer's memory against two of this deployment's budgets
 * plus the budgets of the other resident deployments holding memory there. A training
 * running there can still make the candidate wait for memory; its load then times out
 * saying so, and the current release keeps serving.
 */
import type { DeploymentStateData } from "@/contracts/lifecycles";
import type { Db } from "@/server/db/client";
import { DomainError } from "@/server/errors";
import { PROBE_MAX_AGE_MS } from "@/server/jobs/jobs.service";
import type { Tx } from "@/server/lifecycle/transition";
import { parseProbe, targetsService } from "@/server/targets/targets.service";
import { DEFAULT_MEMORY_GB, type SwitchRoom } from "./deployments.schema";
import { deploymentKind } from "./release-kind";
import { deploymentsRepository } from "./deployments.repository";

type Client = Db | Tx;
type Row = { id: string; mode: string; targetId: string; memoryGb: number | null; currentReleaseId: string | null };

/** A deployment in these states holds its budget on its computer (a serving job loaded or loading). */
const HOLDING = ["loading", "ready", "switching"];

const gb = (n: number) => `${Math.round(n * 10) / 10} GB`;

async function budgetOf(db: Client, row: Row): Promise<number> {
  return row.memoryGb ?? DEFAULT_MEMORY_GB[await deploymentKind(db, row)];
}

/**
 * `capacityGb`: the computer's memory; the view passes its last probe's (null when it was
 * never probed: then a switch overlaps, as it did before this check), a switch a fresh one.
 */
export async function switchRoom(db: Client, row: Row, capacityGb: number | null): Promise<SwitchRoom | null> {
  if (row.mode !== "resident") return null;
  if (capacityGb === null) return { kind: "overlap", detail: "The computer's memory is not known yet; a switch loads the new release beside the current one." };
  const others = await deploymentsRepository(db).otherResidentsOn(row.targetId, HOLDING, row.id);
  const [own, held] = await Promise.all([budgetOf(db, row), Promise.all(others.map((o) => budgetOf(db, o))).then((b) => b.reduce((s, x) => s + x, 0))]);
  const need = 2 * own + held;
  const sums = `two releases of ${gb(own)}${held ? ` and ${gb(held)} held by ${others.length} other deployment${others.length === 1 ? "" : "s"}` : ""} need ${gb(need)}; the computer has ${gb(capacityGb)}`;
  if (need <= capacityGb) return { kind: "overlap", detail: `A switch loads the new release beside the current one (${sums}), so no request fails.` };
  return {
    kind: "downtime",
    detail: `The computer has no room for both releases (${sums}). A switch unloads the current release first: requests answer 503 until the new one has loaded (a short downtime), and if it fails to load the current release is loaded again.`,
  };
}

/** The stored probe's memory: what the page shows before a switch. */
export async function storedCapacityGb(db: Client, targetId: string): Promise<number | null> {
  const t = await deploymentsRepository(db).computerProbe(targetId);
  return parseProbe(t?.probe ?? null)?.capacity.ramGb ?? null;
}

/** A fresh (at most a minute old) probe's memory: what a switch decides on. */
export async function freshCapacityGb(db: Db, targetId: string): Promise<number> {
  return (await targetsService(db).freshProbe(targetId, PROBE_MAX_AGE_MS)).probe.capacity.ramGb;
}

/** What a request meets while a downtime switch has the current release unloaded (`switching` data); null otherwise. */
export function downtimeRefusal(name: string, reason: string | null, switching: DeploymentStateData["switching"] | null) {
  if (switching?.plan !== "downtime") return null;
  return new DomainError("UNAVAILABLE", `The deployment "${name}" is ${reason}; it answers again once the new release has loaded.`, { code: "switching", retryAfterSeconds: 5 });
}
