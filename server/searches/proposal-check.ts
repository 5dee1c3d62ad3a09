/**
 * Checks a trial's settings against a search's frozen space, pure: every reason a
 * proposal breaks it, not only the first (an agent fixes them all in one go).
 */
import type { SearchSpace, SpaceParam, TrialParams } from "@/contracts/recipes/search";

function rangeReason(p: SpaceParam, v: unknown): string | null {
  if (p.kind === "categorical") return p.choices.some((c) => c === v) ? null : `${p.name} must be one of ${p.choices.map((c) => JSON.stringify(c)).join(", ")} (got ${JSON.stringify(v)}).`;
  if (typeof v !== "number" || !Number.isFinite(v)) return `${p.name} must be a number (got ${JSON.stringify(v)}).`;
  if (p.kind === "int" && !Number.isInteger(v)) return `${p.name} must be a whole number (got ${v}).`;
  if (v < p.low || v > p.high) return `${p.name} must be between ${p.low} and ${p.high} (got ${v}).`;
  return null;
}

/** Every way `params` leaves the space: unknown names, missing ones, values out of range, ones that do not apply. */
export function spaceViolations(space: SearchSpace, params: TrialParams): string[] {
  const reasons: string[] = [];
  const known = new Set(space.params.map((p) => p.name));
  for (const name of Object.keys(params)) if (!known.has(name)) reasons.push(`${name} is not a parameter of this search's space.`);
  for (const p of space.params) {
    const applies = !p.when || p.when.in.some((x) => x === params[p.when!.param]);
    const has = Object.hasOwn(params, p.name);
    if (!applies) {
      if (has) reasons.push(`${p.name} applies only when ${p.when!.param} is ${p.when!.in.map((x) => JSON.stringify(x)).join(" or ")}.`);
      continue;
    }
    if (!has) {
      reasons.push(`${p.name} is missing.`);
      continue;
    }
    const r = rangeReason(p, params[p.name]);
    if (r) reasons.push(r);
  }
  return reasons;
}
