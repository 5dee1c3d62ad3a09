/** `trainyard experiments list|show|cancel|logs` against the running server. */
import { isExperimentTerminal } from "@/server/experiments/experiment-state";
import { CliError } from "../cli-error";
import { parseSubcommand } from "../subcommand-args";
import { connect, withRetry, type Connection } from "../api-client";
import { experimentJson } from "../train/result-json";
import { describeProgress } from "../train/progress-line";
import { formatComparison } from "../train/format-score";
import { describeFineTuneProgress } from "../finetune/progress-line";
import { fineTuneJson, fineTuneSummary } from "../finetune/result-json";
import { runFailure, runFailureLines, toldFailure } from "../run-failure";

export const USAGE = `Usage:
  trainyard experiments list [--project NAME] [--json]
  trainyard experiments show ID [--json]
  trainyard experiments cancel ID
  trainyard experiments logs ID [--step STEP] [--follow]`;

/** A fine-tuning experiment's view, or null for a tabular one (finetune.get answers NOT_FOUND for those). */
async function fineTuneView(conn: Connection, id: string) {
  try {
    return await withRetry(() => conn.api.finetune.get.query({ id }));
  } catch (err) {
    if (err instanceof CliError && err.code === "not_found") return null;
    throw err;
  }
}

const experimentSeconds = (e: { startedAt: string; endedAt: string | null }) =>
  e.endedAt ? Math.round((Date.parse(e.endedAt) - Date.parse(e.startedAt)) / 1000) : null;

export async function projectId(conn: Connection, name: string): Promise<string> {
  const projects = await withRetry(() => conn.api.projects.list.query({ includeArchived: true }));
  const p = projects.find((x) => x.name.toLowerCase() === name.toLowerCase());
  if (!p) throw new CliError(`No project named "${name}" (have: ${projects.map((x) => x.name).join(", ") || "none"}).`, 1, "not_found");
  return p.id;
}

/** What `logs` reads of an experiment of either kind: its state and each step's job. */
type StepsNow = { status: string; steps: { step: string; jobId: string | null }[] };

async function logs(conn: Connection, id: string, step: string | undefined, follow: boolean): Promise<void> {
  // The kind does not change: ask which it is once, then read only that kind's view.
  const read: () => Promise<StepsNow> = (await fineTuneView(conn, id))
    ? async () => {
        const v = await withRetry(() => conn.api.finetune.get.query({ id }));
        return { status: v.experiment.status, steps: v.steps };
      }
    : () => withRetry(() => conn.api.experiments.get.query({ id }));
  const offsets = new Map<string, number>();
  for (;;) {
    const exp = await read();
    if (step && !exp.steps.some((s) => s.step === step)) {
      throw new CliError(`No step "${step}" (steps: ${exp.steps.map((s) => s.step).join(", ")}).`);
    }
    const steps = exp.steps.flatMap((s) => (s.jobId && (!step || s.step === step) ? [{ step: s.step, jobId: s.jobId }] : []));
    for (const s of steps) {
      for (;;) {
        const offset = offsets.get(s.jobId) ?? 0;
        const chunk = await withRetry(() => conn.api.jobs.logs.query({ id: s.jobId, offset }));
        if (chunk.data) process.stdout.write(steps.length > 1 ? chunk.data.replace(/^(?=.)/gm, `[${s.step}] `) : chunk.data);
        offsets.set(s.jobId, chunk.nextOffset);
        if (chunk.nextOffset === offset || chunk.eof) break;
      }
    }
    if (!follow || isExperimentTerminal(exp.status)) return;
    await new Promise((r) => setTimeout(r, 2000));
  }
}

export async function experimentsCommand(argv: string[]): Promise<number> {
  const { sub, values, positionals } = parseSubcommand(argv, {
    step: { type: "string" },
    follow: { type: "boolean", default: false },
  });
  const conn = connect();
  const id = positionals[0];
  switch (sub) {
    case "list": {
      const pid = await projectId(conn, values.project!);
      const list = await withRetry(() => conn.api.experiments.list.query({ projectId: pid }));
      if (values.json) {
        const details = [];
        for (const e of list) {
          const ft = e.kind === "finetune" ? await fineTuneView(conn, e.id) : null;
          details.push(ft ? fineTuneJson(ft, { exportPath: null, seconds: experimentSeconds(ft.experiment) }) : experimentJson(await withRetry(() => conn.api.experiments.get.query({ id: e.id }))));
        }
        console.log(JSON.stringify(details, null, 2));
      } else if (!list.length) console.log(`No experiments in "${values.project}".`);
      else for (const e of list) console.log(`${e.id}  ${e.status.padEnd(9)}  ${formatComparison(e.metric, e.candidate, e.baseline)}  ${e.seconds ?? "-"} s  ${e.name}`);
      return 0;
    }
    case "show": {
      if (!id) throw new CliError(USAGE, 2);
      const ft = await fineTuneView(conn, id);
      if (ft) {
        const result = fineTuneJson(ft, { exportPath: null, seconds: experimentSeconds(ft.experiment) });
        if (values.json) console.log(JSON.stringify(result, null, 2));
        else {
          console.log(`${ft.experiment.name} (${ft.experiment.id})`);
          console.log(describeFineTuneProgress(ft));
          for (const l of fineTuneSummary(result, ft.experiment.reason).slice(1)) console.log(l);
        }
        return 0;
      }
      const exp = await withRetry(() => conn.api.experiments.get.query({ id }));
      if (values.json) console.log(JSON.stringify(experimentJson(exp), null, 2));
      else {
        console.log(`${exp.name} (${exp.id})`);
        console.log(describeProgress(exp));
        const failure = toldFailure(exp.status, runFailure(exp.status, exp.error, exp.note));
        if (failure) for (const l of runFailureLines(failure)) console.log(l);
        else if (exp.note) console.log(exp.note);
        if (exp.results) console.log(`${formatComparison(exp.metric, exp.candidate, exp.baseline)}; ${exp.results.comparison.reason}`);
      }
      return 0;
    }
    case "cancel": {
      if (!id) throw new CliError(USAGE, 2);
      const exp = await withRetry(() => conn.api.experiments.cancel.mutate({ id }));
      console.log(isExperimentTerminal(exp.status) ? `Experiment ${id} is ${exp.status}.` : `Cancelling experiment ${id}…`);
      return 0;
    }
    case "logs": {
      if (!id) throw new CliError(USAGE, 2);
      await logs(conn, id, values.step, values.follow ?? false);
      return 0;
    }
    default:
      throw new CliError(USAGE, 2);
  }
}
