/**
 * `trainyard holdouts create|list|compare` (issue 32) against the running server:
 *   create --project NAME --data FILE [--name N] --json → {"id", …}
 *   create --project NAME --from-dataset DATASET --time-column C [--newest-percent P] [--name N] --json → {"id", …}
 *   list [--project NAME] --json
 *   delete ID --json → {"holdoutId", "name", "removesFile", "blockers", "copiesLeft", …}
 *   compare MODEL --versions 1,2 [--holdout ID] --json → {"metric", "results": [{"version", "value"}], "difference": {"estimate", "low", "high"}, …}
 */
import { CliError } from "../cli-error";
import { percentFlag } from "../flag-numbers";
import { connect, withRetry } from "../api-client";
import { parseSubcommand, requiredArg } from "../subcommand-args";
import { readableFileSize, uploadHoldout } from "../train/upload-file";
import { projectId } from "./experiments";
import { findModel, refusalsKept } from "./models";

export const USAGE = `Usage:
  trainyard holdouts create --project NAME --data FILE [--name NAME] [--json]
  trainyard holdouts create --project NAME --from-dataset DATASET --time-column COLUMN [--newest-percent P] [--name NAME] [--json]
  trainyard holdouts list [--project NAME] [--json]
  trainyard holdouts delete ID [--json]
  trainyard holdouts compare MODEL --versions 1,2 [--holdout ID] [--project NAME] [--json]
A holdout is a project's reserved data: no training, search or agent is ever given it, and
every experiment started after it keeps its rows out. For a task ordered in time, reserve
the newest rows of a dataset (its name or id): the newest --newest-percent (default 10) by
COLUMN, rows sharing the first held-out time included. compare scores versions of MODEL on
the rows of the holdout (default: the newest) that none of them learnt from; the
difference is the second version's value minus the first's, with a 95% interval. delete
gives a holdout's rows back: experiments started afterwards may train on them (refused
while an experiment, search or job still keeps them out or reads them).`;

const need = requiredArg(USAGE);

function versionsOf(text: string): number[] {
  const parts = text.split(",").map((p) => p.trim());
  if (parts.length < 2 || !parts.every((p) => /^[1-9]\d*$/.test(p))) throw new CliError(`--versions takes two or more version numbers, e.g. 1,2 (got ${text}).\n${USAGE}`, 2);
  return parts.map(Number);
}

async function createFromDataset(values: { project: string; data?: string; name?: string; "from-dataset"?: string; "time-column"?: string; "newest-percent"?: string }, print: (value: unknown, text: () => string) => void): Promise<number> {
  if (values.data !== undefined) throw new CliError(`Give --data FILE or --from-dataset DATASET, not both.\n${USAGE}`, 2);
  const ref = need(values["from-dataset"], "--from-dataset DATASET");
  const timeColumn = need(values["time-column"], "--time-column COLUMN");
  // At most 50: the data keeps at least half to train on.
  const percent = percentFlag(values["newest-percent"], "--newest-percent", 50, USAGE);
  const conn = connect();
  const pid = await projectId(conn, values.project);
  const all = await withRetry(() => conn.api.datasets.list.query({ projectId: pid }));
  const matches = all.filter((d) => d.id === ref || d.name === ref);
  if (matches.length === 0) throw new CliError(`Project "${values.project}" has no dataset "${ref}" (give its name or id; the project's Data page lists them).`, 1, "not_found");
  if (matches.length > 1) throw new CliError(`Several datasets are named "${ref}": give one's id (${matches.map((d) => d.id).join(", ")}).`, 1, "ambiguous");
  const h = await refusalsKept(() => conn.api.holdouts.reserveNewest.mutate({ projectId: pid, datasetId: matches[0]!.id, timeColumn, ...(percent === undefined ? {} : { percent }), ...(values.name ? { name: values.name } : {}) }));
  print(h, () => `${h.reused ? "Already reserved" : "Reserved"}: holdout ${h.id} "${h.name}" (${h.rows} rows). Experiments started from now on keep its rows out; a time split trains only on rows before them.`);
  return 0;
}

const fmt = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(1) : x.toPrecision(4));

export async function holdoutsCommand(argv: string[]): Promise<number> {
  const { sub, values, positionals } = parseSubcommand(argv, {
    data: { type: "string" },
    name: { type: "string" },
    versions: { type: "string" },
    holdout: { type: "string" },
    "from-dataset": { type: "string" },
    "time-column": { type: "string" },
    "newest-percent": { type: "string" },
  });
  const json = values.json;
  const print = (value: unknown, text: () => string) => console.log(json ? JSON.stringify(value, null, 2) : text());
  switch (sub) {
    case "create": {
      if (values["from-dataset"] !== undefined) return createFromDataset(values, print);
      const file = need(values.data, "--data FILE");
      readableFileSize(file);
      const conn = connect();
      const pid = await projectId(conn, values.project);
      const log = (line: string) => {
        if (!json) console.error(line);
      };
      const h = await uploadHoldout(conn, pid, file, values.name, log);
      print(h, () => `${h.reused ? "Already reserved" : "Reserved"}: holdout ${h.id} "${h.name}" (${h.rows} rows). Experiments started from now on keep its rows out.`);
      return 0;
    }
    case "list": {
      const conn = connect();
      const pid = await projectId(conn, values.project);
      const list = await withRetry(() => conn.api.holdouts.list.query({ projectId: pid }));
      print(list, () => (list.length ? list.map((h) => `${h.id}  ${h.name}  ${h.rows} rows  reserved ${h.createdAt}`).join("\n") : `Project "${values.project}" has no holdout.`));
      return 0;
    }
    case "delete": {
      const conn = connect();
      const r = await refusalsKept(() => conn.api.holdouts.delete.mutate({ id: need(positionals[0], "ID") }));
      print(r, () =>
        [
          `Deleted holdout ${r.holdoutId} "${r.name}": its ${r.rows} rows are no longer kept out of experiments started from now on.`,
          r.removesFile ? "Its file was removed from the computers' stores." : "Its file stays: a dataset or another project's holdout holds the same bytes.",
          ...r.copiesLeft.map((c) => `  ${c.computer} kept its copy: ${c.reason}`),
        ].join("\n"),
      );
      return 0;
    }
    case "compare": {
      const conn = connect();
      const model = await findModel(conn, values.project, need(positionals[0], "MODEL"));
      const versions = versionsOf(need(values.versions, "--versions 1,2"));
      if (!json) console.error(`Scoring versions ${versions.join(", ")} of "${model.name}" on the holdout…`);
      const r = await refusalsKept(() => conn.api.holdouts.compare.mutate({ modelId: model.id, versions, ...(values.holdout ? { holdoutId: values.holdout } : {}) }));
      print(r, () => {
        const better = r.direction === "higher_is_better" ? "higher" : "lower";
        const d = r.difference;
        return [
          `On holdout "${r.holdout.name}": ${r.rows} rows no version learnt from (${r.excluded.total} left out). ${r.metric}, ${better} is better:`,
          ...r.results.map((x) => `  version ${x.version}: ${fmt(x.value)}`),
          `Version ${d.of[1]} − version ${d.of[0]}: ${fmt(d.estimate)} (${Math.round(d.confidence * 100)}% interval ${fmt(d.low)} to ${fmt(d.high)})`,
        ].join("\n");
      });
      return 0;
    }
    default:
      throw new CliError(USAGE, 2);
  }
}
