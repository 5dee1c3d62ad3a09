/**
 * Recipe noise kept out of the log a person reads (the full log stays downloadable):
 * - AutoGluon probes for a GPU through torch on every fit; on a CPU-only environment
 *   (torch not installed) it logs "Failed to import torch or check CUDA availability!"
 *   at ERROR level although nothing is wrong.
 * - AutoGluon deletes the models it does not keep and says so with its internal path
 *   ("Deleting model X. All files under /…/jobs/<id>/… will be removed."), which reads
 *   like data loss to a user.
 * Only these exact shapes are hidden; anything else, however noisy, is shown. Pure; unit-tested.
 */

const NOISE: RegExp[] = [
  /Failed to import torch or check CUDA availability/,
  /^\s*Deleting model \S+\. All files under \S*\/jobs\/\S* will be removed\.?\s*$/,
];

// AutoGluon prefixes lines with a tab; the recipe may prefix a timestamp or level.
const isNoise = (line: string) => NOISE.some((re) => re.test(line.replace(/^.*?(Deleting model )/, "$1")));

export interface CleanLog {
  lines: string[];
  hidden: number;
}

/** The log without the known noise, and how many lines were hidden. */
export function withoutNoise(text: string): CleanLog {
  const lines = text.split("\n");
  const kept = lines.filter((l) => !isNoise(l));
  return { lines: kept, hidden: lines.length - kept.length };
}
