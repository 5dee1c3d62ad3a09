// The batch scripts sbatch runs on a compute node: they only start a job's supervisor
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

/**
 * An array's script: each task starts the supervisor of the job its index names, its
 * output appended to that job's own slurm.log. An index with no job ends the task failed.
 */
export function batchCaseScript(tasks: readonly { index: number; log: string; argv: string[] }[]): string {
  return [
    "#!/bin/sh",
    "# Written by the Trainyard worker: each task of this Slurm job array runs one job's supervisor.",
    'case "$SLURM_ARRAY_TASK_ID" in',
    ...tasks.map((t) => `  ${t.index}) exec >>${quote(t.log)} 2>&1; exec ${t.argv.map(quote).join(" ")} ;;`),
    "esac",
    'echo "no job for Slurm array task $SLURM_ARRAY_TASK_ID" >&2',
    "exit 1",
    "",
  ].join("\n");
}
