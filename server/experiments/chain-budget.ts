/**
 * How an experiment's time budget (DESIGN "Job lifecycle") is spent. The budget bounds the
 * compute up to and including training; once a model is trained, its evaluation and
 * export are never lost to the budget: those steps get their own bounded limits, sized
 * from the data, and the experiment records when they ran past the budget. Pure.
 */

/** Evaluation and export after training get this much of the budget, at least. */
export function reserveSeconds(budgetSeconds: number): number {
  return Math.min(300, Math.max(60, Math.round(budgetSeconds * 0.25)));
}

/** Training's own time limit: what remains of the budget after the reserve (at least 30 s). */
export function trainingTimeLimitSeconds(budgetSeconds: number, remainingSeconds: number): number {
  return Math.max(30, Math.floor(remainingSeconds - reserveSeconds(budgetSeconds)));
}

/**
 * The train job's hard stop, past its time limit. The recipe plans to end within the limit
 * but AutoGluon overruns it (upstream #1402, #2012) and saving the model comes after the
 * fit; a stop throws the trained model away, so the stop is for a recipe that hangs and
 * takes at most half the reserve (or a minute).
 */
export function trainingDeadlineSeconds(budgetSeconds: number, remainingSeconds: number): number {
  return trainingTimeLimitSeconds(budgetSeconds, remainingSeconds) + Math.max(60, Math.round(reserveSeconds(budgetSeconds) / 2));
}

const PREPARE_DEADLINE_S = 15 * 60;
const MIN_STEP_DEADLINE_S = 120;

/** A data preparation step: its bound, but never past the budget (two minutes at least). */
export function preparingDeadlineSeconds(remainingSeconds: number): number {
  return Math.max(MIN_STEP_DEADLINE_S, Math.min(PREPARE_DEADLINE_S, Math.floor(remainingSeconds)));
}

/**
 * An evaluation or export step: five minutes plus four seconds per MB of data (predicting
 * and packaging grow with it), at most 30 minutes; independent of the budget left.
 */
export function evaluationDeadlineSeconds(datasetBytes: number | undefined): number {
  const mb = Math.max(0, datasetBytes ?? 0) / 1e6;
  return Math.min(30 * 60, 300 + Math.ceil(mb * 4));
}

/** What the experiment says about its budget when it ran past it; null when it did not. */
export function budgetNote(b: { budgetStartedAt: Date; budgetSeconds: number; trainEndedAt: Date | null; endedAt: Date }): string | null {
  const budgetEnd = b.budgetStartedAt.getTime() + b.budgetSeconds * 1000;
  const over = Math.round((b.endedAt.getTime() - budgetEnd) / 1000);
  if (over <= 0) return null;
  const minutes = b.budgetSeconds % 60 === 0 ? `${b.budgetSeconds / 60} minute` : `${b.budgetSeconds} second`;
  if (b.trainEndedAt && b.trainEndedAt.getTime() > budgetEnd) {
    return `Training used the whole ${minutes} budget; evaluation and export ran after it, ${over} s past the budget, so the trained model was kept.`;
  }
  return `Training finished within the ${minutes} budget; evaluation and export ran ${over} s past it, so the trained model was kept.`;
}

/**
 * Seconds the budgeted step's job has waited in Slurm's queue (or gathered for its job
 * array): Slurm keeps that queue, so waiting there is not time spent on the experiment.
 * Its training gets its full deadline from its own start on a compute node.
 */
export function slurmQueueSeconds(job: { slurm: string | null; slurmArray: string | null; createdAt: Date; startedAt: Date | null } | undefined, now: Date): number {
  if (!job || (job.slurm === null && job.slurmArray === null)) return 0;
  return Math.max(0, ((job.startedAt ?? now).getTime() - job.createdAt.getTime()) / 1000);
}
