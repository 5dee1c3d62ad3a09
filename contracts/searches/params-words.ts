/** A trial's settings in words, shared by the CLI (`trainyard train --mode improve`) and the search page. */

const round = (v: number) => Number(v.toPrecision(4));

/** A trial's settings in one short line ("GBM learning_rate=0.05 num_leaves=31"): the family first, its own names without the prefix. */
export function paramsWords(params: Record<string, unknown>): string {
  const family = String(params.family ?? "");
  const rest = Object.entries(params)
    .filter(([k]) => k !== "family")
    .map(([k, v]) => `${family && k.startsWith(`${family}.`) ? k.slice(family.length + 1) : k}=${typeof v === "number" ? round(v) : String(v)}`);
  return [family, ...rest].filter(Boolean).join(" ");
}
