/**
 * `trainyard finetune`: check the command line, send the base model (or name one on the
 * training computer) and the JSONL examples, start a fine-tuning experiment, follow it on
 * stderr (reconnecting across server restarts), download the verified export, and print
 * the result on stdout: a short summary ending with the export's path, or with `--json`
 * one object (with an `error` object too when the experiment did not succeed). With
 * `--resume ID` it starts a new attempt from a stopped experiment's checkpoint instead, and
 * follows and prints it the same way.
 */
import { randomUUID } from "node:crypto";
import type { DatasetView } from "@/server/datasets/datasets.schema";
import { isExperimentTerminal } from "@/server/experiments/experiment-state";
import type { FineTuneView } from "@/server/finetune/finetune.schema";
import { CliError } from "../cli-error";
import { connect, withRetry, type Connection } from "../api-client";
import { resolveComputer, resolveProject } from "../resolve-names";
import { downloadVerified } from "../train/download-export";
import { waitUntil } from "../train/follow";
import { uploadFile } from "../train/upload-file";
import { asksToResume, FINETUNE_HELP, parseFineTuneArgs, parseResumeArgs } from "../finetune/args";
import { describeFineTuneProgress, milestoneLines } from "../finetune/progress-line";
import { fineTuneJson, fineTuneSummary } from "../finetune/result-json";
import { sendModel } from "../finetune/send-model";

/** Uploads one JSONL file and waits for its profile: the server reads it as examples before anything trains. */
async function sendExamples(conn: Connection, projectId: string, file: string, log: (l: string) => void): Promise<string> {
  const up = await uploadFile(conn, projectId, file, log);
  if (up.reused) log(`The same bytes were uploaded before: reusing that dataset.`);
  const d = (await waitUntil(
    () => conn.api.datasets.get.query({ id: up.datasetId }),
    (v) => v.status !== "profiling",
    { what: `the examples in ${file}`, onWait: log },
  )) as DatasetView;
  if (d.status === "failed") throw new CliError(`${file} could not be read as examples: ${d.error?.message ?? "unknown error"}`, 1, "data_unreadable");
  return d.id;
}

/** Follows the experiment until it ends, printing each new fact and each changed progress line. */
async function follow(conn: Connection, started: FineTuneView, log: (l: string) => void): Promise<FineTuneView> {
  const said = new Set<string>();
  let lastLine = "";
  return waitUntil(
    () => conn.api.finetune.get.query({ id: started.experiment.id }),
    (v) => isExperimentTerminal(v.experiment.status),
    {
      what: `experiment ${started.experiment.id}`,
      everyMs: 2000,
      // The budget covers the whole chain; the margin is for a queue or a computer that is away.
      timeoutMs: started.experiment.settings.maxMinutes * 60_000 + 30 * 60_000,
      onWait: log,
      onTick: (v) => {
        for (const m of milestoneLines(v)) {
          if (said.has(m.key)) continue;
          said.add(m.key);
          log(m.line);
        }
        const line = describeFineTuneProgress(v);
        if (line !== lastLine) log(line);
        lastLine = line;
      },
    },
  );
}

/** Follows the experiment to its end, saves its export, and prints the result; the exit code. */
async function followAndReport(conn: Connection, started: FineTuneView, out: { out: string; json: boolean; startedAt: number }, log: (l: string) => void): Promise<number> {
  const final = await follow(conn, started, log);
  const exp = final.experiment;
  const exportPath = final.export
    ? await downloadVerified(conn, { urlPath: final.export.downloadUrl, sha256: final.export.sha256 }, out.out, log)
    : null;
  const result = fineTuneJson(final, { exportPath, seconds: Math.round((Date.now() - out.startedAt) / 1000) });
  if (out.json) console.log(JSON.stringify(result, null, 2));
  else for (const l of fineTuneSummary(result, exp.reason ?? exp.progressNote)) console.log(l);
  return exp.status === "succeeded" ? 0 : 1;
}

/** `--resume ID`: a new attempt from the stopped experiment's checkpoint (finetune.resume), followed like a first run. */
async function resumeCommand(argv: string[], log: (l: string) => void): Promise<number> {
  const args = parseResumeArgs(argv);
  const startedAt = Date.now();
  const conn = connect();
  // One id per command, outside the retried call: a retry answers the attempt it started (a new id would be refused as a second resume).
  const opId = randomUUID();
  const started = await withRetry(() => conn.api.finetune.resume.mutate({ id: args.experimentId, opId }));
  const from = started.training?.resumedFromStep;
  log(`Experiment ${started.experiment.id} resumes ${args.experimentId} on ${started.experiment.targetName}${from ? ` at step ${from}` : ""}: ${started.experiment.name}`);
  return followAndReport(conn, started, { ...args, startedAt }, log);
}

export async function finetuneCommand(argv: string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    console.log(FINETUNE_HELP);
    return 0;
  }
  const log = (l: string) => process.stderr.write(`${l}\n`);
  if (asksToResume(argv)) return resumeCommand(argv, log);
  const args = parseFineTuneArgs(argv);
  const startedAt = Date.now();
  const conn = connect();
  const project = await resolveProject(conn, args.project);
  const targetId = args.computer ? await resolveComputer(conn, args.computer) : undefined;
  // The examples first: a file the server cannot read costs no model upload.
  const datasetId = await sendExamples(conn, project.id, args.data, log);
  const evalDatasetId = args.eval ? await sendExamples(conn, project.id, args.eval, log) : undefined;
  const base = await sendModel(conn, project.id, args.model, log);
  // Outside the retried call: a request the server took but did not answer is retried as the same start.
  const opId = randomUUID();
  const started = await withRetry(() =>
    conn.api.finetune.start.mutate({
      opId,
      projectId: project.id,
      datasetId,
      ...(evalDatasetId ? { evalDatasetId } : {}),
      ...(targetId ? { targetId } : {}),
      settings: { ...args.settings, base },
    }),
  );
  log(`Experiment ${started.experiment.id} started on ${started.experiment.targetName}: ${started.experiment.name}`);
  return followAndReport(conn, started, { out: args.out, json: args.json, startedAt }, log);
}
