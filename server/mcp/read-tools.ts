/**
 * The read tools of `trainyard mcp`: each is its input shape, its output shape and one
 * function of the bound project (project-scope.ts). They only query the API, so a
 * read-only token serves all of them. No tool returns a test-partition score or a data row.
 */
import type { z } from "zod";
import { listExperiments, notFound, projectDatasetIds, projectExperiment, ToolRefusal, type ProjectScope } from "./project-scope";
import { readLogTail } from "./log-tail";
import {
  MAX_COMPARED,
  MAX_LOG_LINES,
  ZCompareExperimentsInput,
  ZCompareExperimentsOutput,
  ZDescribeInputsInput,
  ZDescribeInputsOutput,
  ZExperimentDetail,
  ZGetExperimentInput,
  ZGetJobLogsInput,
  ZGetJobLogsOutput,
  ZListExperimentsInput,
  ZListExperimentsOutput,
  ZListModelsInput,
  ZListModelsOutput,
  type ExperimentDetail,
} from "./tool-shapes";
import { datasetDescription, experimentSummary, fineTuneDetail, tabularDetail } from "./views";
import { tool, type AgentTool } from "./tool-spec";

async function experimentDetail(scope: ProjectScope, id: string): Promise<ExperimentDetail> {
  const row = await projectExperiment(scope, id);
  const { api, call } = scope;
  if (row.kind === "finetune") return fineTuneDetail(row, await call(() => api.finetune.get.query({ id })));
  const detail = await call(() => api.experiments.get.query({ id }));
  // The list said it is this project's; the detail must agree (a moved id is not followed).
  if (detail.projectId !== scope.projectId) throw notFound(scope, "experiment", id);
  return tabularDetail(detail);
}

const describeInputs = tool({
  name: "describe_inputs",
  description:
    "The project's datasets (or one): size, column types, missing and distinct counts, numeric ranges, the common values of categorical columns, and, with a target, the data issues the checks found. Aggregate statistics only: never rows.",
  input: ZDescribeInputsInput,
  output: ZDescribeInputsOutput,
  async run(scope, input) {
    const { api, call } = scope;
    const datasets = [];
    for (const id of await projectDatasetIds(scope, input.datasetId)) {
      const d = await call(() => api.datasets.get.query({ id }));
      const target = input.target;
      const checks = target && d.kind === "table" ? await call(() => api.datasets.checks.query({ id, target })) : null;
      datasets.push(datasetDescription(d, checks));
    }
    return { datasets };
  },
});

const listExperimentsTool = tool({
  name: "list_experiments",
  description: "The project's experiments, newest first: state, task, metric, target and timing. Scores are in get_experiment (validation only).",
  input: ZListExperimentsInput,
  output: ZListExperimentsOutput,
  async run(scope, input) {
    const all = await listExperiments(scope);
    const newest = [...all].sort((a, b) => b.createdAt.localeCompare(a.createdAt)).slice(0, input.limit);
    return { experiments: newest.map(experimentSummary), total: all.length };
  },
});

const getExperiment = tool({
  name: "get_experiment",
  description:
    "One experiment of the project: its settings, steps with their job ids, and what training measured on the validation partition (best model, validation score, every model's validation score, permutation feature importance). Test-partition scores are never included.",
  input: ZGetExperimentInput,
  output: ZExperimentDetail,
  run: (scope, input) => experimentDetail(scope, input.experimentId),
});

const getJobLogs = tool({
  name: "get_job_logs",
  description: `The last lines of one step's job log (at most ${MAX_LOG_LINES} lines, each cut at 2000 characters), e.g. to see why a step failed.`,
  input: ZGetJobLogsInput,
  output: ZGetJobLogsOutput,
  async run(scope, input) {
    const exp = await experimentDetail(scope, input.experimentId);
    const withJob = exp.steps.filter((s) => s.jobId);
    const step = input.step ? exp.steps.find((s) => s.step === input.step) : withJob.at(-1);
    if (input.step && !step) throw new ToolRefusal(`No step "${input.step}" (steps: ${exp.steps.map((s) => s.step).join(", ")}).`);
    if (!step?.jobId) throw new ToolRefusal(input.step ? `Step "${input.step}" has not started a job yet.` : "No step of this experiment has started a job yet.");
    const jobId = step.jobId;
    const tail = await readLogTail((offset, maxBytes) => scope.call(() => scope.api.jobs.logs.query({ id: jobId, offset, maxBytes })), input.maxLines);
    return { experimentId: exp.id, step: step.step, jobId, state: step.state, ...tail };
  },
});

const compareExperiments = tool({
  name: "compare_experiments",
  description: `Experiments of the project side by side on their validation results (2 to ${MAX_COMPARED}), and whether the scores compare (same metric, dataset and target).`,
  input: ZCompareExperimentsInput,
  output: ZCompareExperimentsOutput,
  async run(scope, input) {
    const rows: z.output<typeof ZCompareExperimentsOutput>["experiments"] = [];
    for (const id of [...new Set(input.experimentIds)]) {
      const e = await experimentDetail(scope, id);
      rows.push({
        id: e.id,
        name: e.name,
        status: e.status,
        metric: e.metric,
        direction: e.validation?.direction ?? null,
        target: e.target,
        mode: e.mode,
        datasetId: e.datasetId,
        bestModel: e.validation?.bestModel ?? null,
        validationScore: e.validation?.validationScore ?? null,
        validationRows: e.validation?.validationRows ?? null,
      });
    }
    const same = (k: "metric" | "target" | "datasetId") => new Set(rows.map((r) => r[k])).size === 1;
    const comparable = same("metric") && same("target") && same("datasetId");
    const note = comparable
      ? `Same metric, dataset and target (${rows[0]!.direction === "lower_is_better" ? "lower" : "higher"} is better). The validation partitions differ when the split settings differ.`
      : "Different metric, dataset or target: these validation scores do not compare.";
    return { experiments: rows, comparable, note };
  },
});

const listModels = tool({
  name: "list_models",
  description:
    "The project's registered models with every version (number, state, experiment, metric), the aliases that point at them (selected, staging, …) and each model's revision (promote_version names it).",
  input: ZListModelsInput,
  output: ZListModelsOutput,
  async run(scope) {
    const { api, call } = scope;
    const models = [];
    for (const m of await call(() => api.models.list.query({ projectId: scope.projectId }))) {
      const shown = await call(() => api.models.show.query({ modelId: m.id }));
      models.push({
        id: m.id,
        name: m.name,
        revision: m.revision,
        createdAt: new Date(m.createdAt).toISOString(),
        aliases: m.aliases.map((a) => ({ name: a.name, version: a.version })),
        versions: shown.versions.map((v) => ({
          number: v.number,
          status: v.status,
          experimentId: v.experimentId,
          primaryMetric: v.primaryMetric,
          createdAt: new Date(v.createdAt).toISOString(),
          aliases: v.aliases,
        })),
      });
    }
    return { models };
  },
});

export const READ_TOOLS: readonly AgentTool[] = [describeInputs, listExperimentsTool, getExperiment, getJobLogs, compareExperiments, listModels];
