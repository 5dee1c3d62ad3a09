/**
 * `trainyard train`: check the target against the file's header, upload (or register)
 * data, apply the data checks' recommended actions, start an experiment, follow it on
 * stderr (reconnecting across server restarts), download the verified export, and print
 * the result on stdout: a short summary ending with the export's path, or with `--json`
 * one object (with an `error` object too when the experiment did not succeed).
 */
import { randomUUID } from "node:crypto";
import { parseArgs } from "node:util";
import type { DatasetView } from "@/server/datasets/datasets.schema";
import { isExperimentTerminal } from "@/server/experiments/experiment-state";
import { CliError } from "../cli-error";
import { connect, withRetry } from "../api-client";
import { resolveComputer, resolveProject } from "../resolve-names";
import { downloadExport } from "../train/download-export";
import { waitUntil } from "../train/follow";
import { applyRecommendedActions } from "@/contracts/vocabulary";
import { parseSplit } from "../train/recommended-actions";
import { MODEL_FAMILY_CHOICES, parseModelFamilies } from "../train/model-families";
import { experimentJson } from "../train/result-json";
import { readableFileSize, uploadFile } from "../train/upload-file";
import { binaryProblem, readFileHeader, targetProblem } from "../train/read-header";
import { formatComparison } from "../train/format-score";
import { describeProgress } from "../train/progress-line";
import { runSearch } from "../train/search-run";
import { featureOptionColumns } from "@/contracts/searches/tabular-space";
import { SEARCH_LIMITS } from "@/contracts/searches/search-spec";
import { runFailureLines, toldFailure } from "../run-failure";

const USAGE = `Usage: trainyard train (--data FILE | --remote-path PATH) --target COLUMN [--project NAME]
  [--computer NAME] [--mode quick|improve] [--max-minutes N] [--max-trials N]
  [--split random|group:COLUMN|time:COLUMN] [--keep COLUMN]... [--models FAMILY,...]
  [--out DIR] [--json]
  --models fits only these model families instead of the quick preset's eight models:
  ${MODEL_FAMILY_CHOICES}; e.g. --models GBM trains one LightGBM.
  --mode improve runs a bounded search (at most --max-trials trials, default 10, in
  --max-minutes, default 10, the final test scoring included), with
  [--trial-minutes N] [--parallel-trials K] [--patience N] [--min-gain X]
  --parallel-trials K runs K trials at once (default 1, at most ${SEARCH_LIMITS.maxParallelTrials}), each training
  on an even share of the computer's CPUs.`;

export async function trainCommand(argv: string[]): Promise<number> {
  if (argv.includes("--help") || argv.includes("-h")) {
    console.log(USAGE);
    return 0;
  }
  const { values } = parseArgs({
    args: argv,
    options: {
      data: { type: "string" },
      "remote-path": { type: "string" },
      target: { type: "string" },
      project: { type: "string", default: "Default" },
      // Unset: the project's default computer, else This computer (the server resolves it).
      computer: { type: "string" },
      mode: { type: "string", default: "quick" },
      "max-minutes": { type: "string" },
      "max-trials": { type: "string" },
      "trial-minutes": { type: "string" },
      "parallel-trials": { type: "string" },
      patience: { type: "string" },
      "min-gain": { type: "string" },
      split: { type: "string" },
      keep: { type: "string", multiple: true, default: [] },
      models: { type: "string" },
      out: { type: "string", default: "." },
      json: { type: "boolean", default: false },
    },
  });
  if (!values.target || Boolean(values.data) === Boolean(values["remote-path"])) throw new CliError(USAGE, 2);
  if (values.mode !== "quick" && values.mode !== "improve") throw new CliError(`--mode is quick or improve.\n${USAGE}`, 2);
  // A search chooses the families itself (its space): a list given to it would be ignored.
  if (values.mode === "improve" && values.models !== undefined) throw new CliError("--models is for --mode quick: a search (--mode improve) chooses among the model families itself.", 2);
  if (values.mode !== "improve" && values["parallel-trials"] !== undefined) throw new CliError("--parallel-trials is for --mode improve: a quick run is one experiment.", 2);
  const num = (v: string | undefined, flag: string) => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isFinite(n) || n <= 0) throw new CliError(`${flag} needs a positive number (got "${v}").`, 2);
    return n;
  };
  const maxMinutes = num(values["max-minutes"], "--max-minutes");
  const maxTrials = num(values["max-trials"], "--max-trials");
  const trialMinutes = num(values["trial-minutes"], "--trial-minutes");
  const parallelTrials = num(values["parallel-trials"], "--parallel-trials");
  if (parallelTrials !== undefined && !(Number.isInteger(parallelTrials) && parallelTrials <= SEARCH_LIMITS.maxParallelTrials)) {
    throw new CliError(`--parallel-trials is a whole number from 1 to ${SEARCH_LIMITS.maxParallelTrials} (got "${values["parallel-trials"]}").`, 2);
  }
  const patience = num(values.patience, "--patience");
  const minGain = values["min-gain"] === undefined ? undefined : Number(values["min-gain"]);
  if (minGain !== undefined && !(Number.isFinite(minGain) && minGain >= 0)) throw new CliError(`--min-gain needs a number of 0 or more (got "${values["min-gain"]}").`, 2);
  let split = null;
  let hyperparameters;
  try {
    split = values.split ? parseSplit(values.split) : null;
    hyperparameters = values.models === undefined ? undefined : parseModelFamilies(values.models);
  } catch (err) {
    throw new CliError((err as Error).message, 2);
  }
  const log = (l: string) => process.stderr.write(`${l}\n`);
  const started = Date.now();
  if (values.data) {
    // Before anything reaches the server: a mistyped target costs no upload.
    readableFileSize(values.data);
    const binary = binaryProblem(values.data);
    if (binary) throw new CliError(binary, 1, "not_text");
    const header = await readFileHeader(values.data);
    const problem = header && targetProblem(header, values.target);
    if (problem) throw new CliError(problem, 1, "no_such_column");
  }
  const conn = connect();

  const project = await resolveProject(conn, values.project!);
  const targetId = values.computer ? await resolveComputer(conn, values.computer) : undefined;
  let datasetId: string;
  if (values.data) {
    const up = await uploadFile(conn, project.id, values.data, log);
    log(up.reused ? `The same bytes were uploaded before: reusing that dataset.` : `Uploaded (${up.bytes} bytes).`);
    datasetId = up.datasetId;
  } else {
    const ds = await withRetry(() => conn.api.datasets.registerPath.mutate({ projectId: project.id, path: values["remote-path"]! }));
    datasetId = ds.datasetId;
  }
  log("Profiling the data…");
  const dataset = (await waitUntil(
    () => conn.api.datasets.get.query({ id: datasetId }),
    (d) => d.status !== "profiling",
    { what: "the data profile", onWait: log },
  )) as DatasetView;
  if (dataset.status === "failed") throw new CliError(`The data could not be read: ${dataset.error?.message ?? "unknown error"}`, 1, "data_unreadable");
  if (!dataset.columns.some((c) => c.name === values.target)) {
    throw new CliError(`There is no column "${values.target}" (columns: ${dataset.columns.map((c) => c.name).join(", ")}).`, 1, "no_such_column");
  }
  log(`${dataset.rowCount} rows, ${dataset.columnCount} columns. Checking the data for target "${values.target}"…`);
  await withRetry(() => conn.api.datasets.startChecks.mutate({ id: datasetId, target: values.target! }));
  const checksView = await waitUntil(
    () => conn.api.datasets.checks.query({ id: datasetId, target: values.target! }),
    (c) => c !== null && c.status !== "running",
    { what: "the data checks", onWait: log },
  );
  if (!checksView) throw new CliError("The data checks did not start.", 1, "checks_failed");
  if (checksView.status === "failed") throw new CliError(`The data checks failed: ${checksView.error?.message ?? "unknown error"}`, 1, "checks_failed");
  const checks = checksView.result;
  if (!checks) throw new CliError("The data checks finished without a result.", 1, "checks_failed");
  log(`Task: ${checks.task} (${checks.taskReason}) Metric: ${checks.metric} (${checks.metricReason})`);
  for (const i of checks.issues) log(`  [${i.severity}] ${i.code}${i.columns.length ? ` (${i.columns.join(", ")})` : ""}${i.message ? `: ${i.message}` : ""}`);
  const defaults = applyRecommendedActions(checks.issues, values.target!, { keep: values.keep, split });
  for (const a of defaults.appliedActions) log(`  applied: ${a}`);

  const dataIssues = checks.issues.map((i) => ({ code: i.code, columns: i.columns, severity: i.severity }));
  if (values.mode === "improve") {
    return runSearch(
      conn,
      {
        projectId: project.id,
        datasetId,
        ...(targetId ? { targetId } : {}),
        target: values.target!,
        task: checks.task,
        metric: checks.metric,
        positiveClass: checks.positiveClass,
        excludeColumns: defaults.excludeColumns,
        featureOptions: featureOptionColumns(checks.issues, values.target!, defaults.excludeColumns),
        split: defaults.split,
        maxMinutes: maxMinutes ?? 10,
        maxTrials: Math.round(maxTrials ?? 10),
        trialMinutes,
        parallelTrials: parallelTrials ?? 1,
        patience: patience === undefined ? undefined : Math.round(patience),
        minGain,
        out: values.out!,
        json: values.json!,
      },
      log,
    );
  }
  // One opId for every retry: a start the server received before the connection dropped
  // returns that experiment again instead of starting a second one.
  const startOpId = randomUUID();
  const exp = await withRetry(() =>
    conn.api.experiments.start.mutate({
      opId: startOpId,
      projectId: project.id,
      datasetId,
      ...(targetId ? { targetId } : {}),
      settings: {
        target: values.target!,
        task: checks.task,
        metric: checks.metric,
        positiveClass: checks.positiveClass,
        excludeColumns: defaults.excludeColumns,
        split: defaults.split,
        mode: values.mode as "quick" | "improve",
        ...(maxMinutes ? { maxMinutes } : {}),
        ...(maxTrials ? { maxTrials: Math.round(maxTrials) } : {}),
        ...(hyperparameters ? { hyperparameters } : {}),
        appliedActions: defaults.appliedActions,
        dataIssues,
      },
    }),
  );
  const computer = (await withRetry(() => conn.api.targets.get.query({ id: exp.targetId }))).name;
  log(`Experiment ${exp.id} started on ${computer}: ${exp.name}`);
  if (exp.placement) log(`Chosen from any computer: ${exp.placement.why}`);
  let lastLine = "";
  const final = await waitUntil(
    () => conn.api.experiments.get.query({ id: exp.id }),
    (e) => isExperimentTerminal(e.status),
    {
      what: `experiment ${exp.id}`,
      // One database read per poll; the poll after the end decides how soon the export
      // downloads (at 2 s it cost a quick penguins run about 1 s of its ~22).
      everyMs: 1000,
      timeoutMs: (maxMinutes ?? 60) * 60_000 + 30 * 60_000,
      // Each new step brings quick polls back for a few seconds: the steps after training are short.
      changeKey: describeProgress,
      onWait: log,
      onTick: (e) => {
        const line = describeProgress(e);
        if (line !== lastLine) log(line);
        lastLine = line;
      },
    },
  );
  let exportPath: string | null = null;
  if (final.status === "succeeded") exportPath = await downloadExport(conn, final, values.out!, log);
  const result = experimentJson(final, { exportPath, seconds: Math.round((Date.now() - started) / 1000), dataIssues });
  if (values.json) {
    console.log(JSON.stringify(result, null, 2));
  } else {
    const told = toldFailure(final.status, result.error);
    console.log(`Experiment ${final.id}: ${final.status} in ${result.seconds} s${final.note && !told ? ` (${final.note})` : ""}`);
    if (result.candidate !== null) {
      const verdict = result.betterThanBaseline ? "better than the baseline" : "not better than the baseline";
      console.log(`${formatComparison(result.metric, result.candidate, result.baseline)}: ${verdict}`);
    }
    if (told) for (const l of runFailureLines(told)) console.log(l);
    // Last, so that `| tail -1` gives the file.
    if (exportPath) console.log(`Export: ${exportPath}`);
  }
  return final.status === "succeeded" ? 0 : 1;
}
