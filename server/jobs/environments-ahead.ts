/**
 * The environments a first training needs, prepared on This computer as soon as its first
 * probe shows them missing (the first `npm start`), instead of when that training starts:
 * building the tabular one takes minutes, which a new user otherwise spends watching
 * "Setting up the training environment". A training started meanwhile joins the build in
 * flight (prepareEnvironment finds its job). Each environment is asked for once per server
 * process: a build that fails is not retried in the background; the training that needs it
 * tries again and says why. Servers reached over SSH are not prepared ahead: a job there
 * holds off editing and removing the server, which a person does right after enrolling it.
 */
import type { Db } from "@/server/db/client";
import type { TProbe } from "@/server/targets/targets.schema";
import { prepareEnvironment } from "./environments";

const ASKED = Symbol.for("trainyard.environmentsAskedAhead");
const asked = () => ((globalThis as { [ASKED]?: Set<string> })[ASKED] ??= new Set());
const key = (targetId: string, environmentId: string) => `${targetId}\u0000${environmentId}`;

/** Those of `recipes` whose environment the probe reports missing and that were not asked for ahead yet. */
export function missingAhead(recipes: readonly string[], targetId: string, probe: Pick<TProbe, "recipes"> | null): string[] {
  if (!probe) return [];
  return recipes.filter((name) => {
    const r = probe.recipes.find((x) => x.name === name);
    return r !== undefined && !r.environmentReady && r.environmentId !== null && !asked().has(key(targetId, r.environmentId));
  });
}

/** Starts (or joins) the prepare job of each missing environment of `recipes`. */
export async function prepareAhead(db: Db, recipes: readonly string[], targetId: string, probe: TProbe, log: (line: string) => void): Promise<void> {
  for (const name of missingAhead(recipes, targetId, probe)) {
    const r = probe.recipes.find((x) => x.name === name)!;
    asked().add(key(targetId, r.environmentId!));
    try {
      await prepareEnvironment(targetId, name, db);
    } catch (err) {
      log(`preparing the ${name} environment ahead of a first training failed: ${(err as Error).message}`);
    }
  }
}
