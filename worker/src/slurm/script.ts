// The batch script sbatch runs on a compute node: it only starts this job's supervisor
// (the same one a worker starts on its own machine), with paths the worker chose itself.
// Quoted for sh, so no path can become shell syntax.

const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

export function batchScript(argv: string[]): string {
  return [
    "#!/bin/sh",
    "# Written by the Trainyard worker: runs one job's supervisor on the node Slurm chose.",
    `exec ${argv.map(quote).join(" ")}`,
    "",
  ].join("\n");
}
