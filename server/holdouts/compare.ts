/**
 * "Compare on the holdout": versions of one model re-scored on a reserved holdout by the
 * trusted evaluator, on the rows none of them learnt from, with a paired-bootstrap interval
 * of the difference (training/evaluation/holdout.py). Three kinds of job, on the computer
 * the first version was trained on: data.holdout_rows (features without the target, labels
 * apart), one tabular.predict per version (it never sees the labels), then
 * evaluation.holdout_compare. Each is awaited and bounded.
 *
 * Refused: a version without exclusion evidence (trained before holdouts: retrain it),
 * versions that do not predict the same target the same way. Fine-tunes compare on a holdout
 * of examples instead (compare-finetunes.ts). The answer goes to
 * whoever asked (the owner's page, the CLI); agents and search planners are never given
 * holdout values (server/mcp holds to that, and a planner's inputs are trial scores).
 */
import { ZHoldoutComparison, ZTableFormat, type Receipt } from "@/contracts/recipes";
import type { Db } from "@/server/db/client";
import { badInput, notFound } from "@/server/errors";
import { ZExperimentSettings } from "@/server/experiments/experiments.schema";
import { ensureBlobOn } from "@/server/datasets";
import { readOutput } from "@/server/jobs/read-output";
import { stageBytes } from "@/server/predictions/predict-job";
import { findModel, findVersion, type VersionView } from "@/server/registry/registry-views";
import { targetsService } from "@/server/targets/targets.service";
import { compareFineTunesOnHoldout } from "./compare-finetunes";
import { holdoutSteps, shortHash } from "./holdout-steps";
import { holdoutsRepository, type HoldoutRow } from "./holdouts.repository";
import { ZCompareOnHoldoutInput, type HoldoutCompareResult, type TCompareOnHoldoutInput } from "./holdouts.schema";

/** The holdout a comparison of `kind` versions scores on: the one named, or the project's newest of that kind. */
async function holdoutFor(db: Db, projectId: string, holdoutId: string | undefined, kind: "table" | "examples"): Promise<HoldoutRow> {
  const repo = holdoutsRepository(db);
  if (holdoutId) {
    const h = await repo.find(holdoutId);
    if (!h || h.projectId !== projectId) throw notFound(`This model's project has no holdout ${holdoutId}.`);
    if (h.kind !== kind) {
      throw badInput(
        kind === "table"
          ? `The holdout "${h.name}" is a file of examples: it compares fine-tunes; tabular versions compare on a holdout of rows.`
          : `The holdout "${h.name}" is a table: it compares tabular versions; fine-tunes compare on a holdout of examples (a .jsonl file).`,
        { code: kind === "table" ? "examples_holdout" : "table_holdout" },
      );
    }
    return h;
  }
  const newest = (await repo.ofProject(projectId)).find((h) => h.kind === kind);
  if (!newest) {
    throw badInput(
      kind === "table"
        ? "This model's project has no holdout of rows yet: reserve one first (trainyard holdouts create --project NAME --data FILE)."
        : "This model's project has no holdout of examples yet: reserve a .jsonl file first (trainyard holdouts create --project NAME --data FILE.jsonl).",
      { code: "no_holdout" },
    );
  }
  return newest;
}

interface Compared {
  view: VersionView;
  receipt: Receipt;
  settings: ReturnType<typeof ZExperimentSettings.parse>;
  trainedRows: Buffer;
}

async function comparable(db: Db, view: VersionView): Promise<Compared> {
  if (view.evidence.kind !== "tabular") throw new Error(`version ${view.number} is not tabular`);
  const rows = await holdoutsRepository(db).exclusionOf(view.id);
  if (rows?.kind !== "rows") {
    throw badInput(`Version ${view.number} has no record of the rows it was trained on (it was trained before holdouts existed), so it cannot claim a holdout score. Retrain it and register the new version.`, {
      code: "no_exclusion_evidence",
      version: view.number,
    });
  }
  return { view, receipt: view.evidence.receipt, settings: ZExperimentSettings.parse(view.settings), trainedRows: Buffer.from(rows.content) };
}

function sameTask(all: Compared[]): void {
  const [first, ...rest] = all;
  for (const c of rest) {
    if (c.view.targetId !== first!.view.targetId) {
      throw badInput(`Versions ${first!.view.number} and ${c.view.number} were trained on different computers; a holdout comparison runs their models on one computer, so compare versions trained on the same one.`, { code: "other_computer" });
    }
    for (const key of ["target", "task", "metric"] as const) {
      if (c.settings[key] !== first!.settings[key]) {
        throw badInput(`Versions ${first!.view.number} and ${c.view.number} differ in ${key} (${String(first!.settings[key])} and ${String(c.settings[key])}): only versions that predict the same thing the same way compare on one holdout.`, { code: "incomparable" });
      }
    }
  }
}

/**
 * Versions of one kind compared on a holdout of that kind: tabular versions on rows (below),
 * fine-tunes on examples (compare-finetunes.ts). A tabular version and a fine-tune never compare.
 */
export async function compareOnHoldout(db: Db, raw: TCompareOnHoldoutInput): Promise<HoldoutCompareResult> {
  const input = ZCompareOnHoldoutInput.parse(raw);
  if (new Set(input.versions).size !== input.versions.length) throw badInput("Name each version once.");
  const model = await findModel(db, input.modelId);
  const views = await Promise.all(input.versions.map((n) => findVersion(db, model.id, n)));
  const kinds = new Set(views.map((v) => v.evidence.kind));
  if (kinds.size > 1) {
    throw badInput(`Versions ${views.map((v) => v.number).join(", ")} are not all of one kind: a fine-tune and a tabular model are not scored on one holdout.`, { code: "incomparable" });
  }
  if (kinds.has("lora")) return compareFineTunesOnHoldout(db, views, await holdoutFor(db, model.projectId, input.holdoutId, "examples"));
  const holdout = await holdoutFor(db, model.projectId, input.holdoutId, "table");
  const versions = await Promise.all(views.map((v) => comparable(db, v)));
  sameTask(versions);
  const first = versions[0]!;
  const target = await targetsService(db).requireTarget(first.view.targetId);
  const datasetFormat = ZTableFormat.parse(JSON.parse(holdout.format));
  await ensureBlobOn(db, target, holdout.sha256);
  const settings = first.settings;
  const label = `Comparing on the holdout ${holdout.name}`;

  const step = holdoutSteps(db, target.id);

  const rows = await step({
    opId: `holdout.rows:${holdout.id}:${shortHash([settings.target, settings.excludeColumns])}`,
    recipe: "data",
    job: "holdout_rows",
    input: { dataset: `sha256:${holdout.sha256}`, datasetFormat, target: settings.target, excludeColumns: settings.excludeColumns },
    label: `${label}: preparing its rows`,
  });
  const entries = [];
  for (const v of versions) {
    const trainedSha = await stageBytes(db, v.trainedRows, `version ${v.view.number}'s trained rows`);
    await ensureBlobOn(db, target, trainedSha);
    const predicted = await step({
      opId: `holdout.predict:${holdout.id}:${v.view.id}:${rows.outputSha256.slice(0, 16)}`,
      recipe: "tabular",
      job: "predict",
      input: { model: `sha256:${v.view.modelSha256}`, features: `sha256:${rows.outputSha256}` },
      label: `${label}: version ${v.view.number} predicting`,
    });
    entries.push({ version: v.view.number, predictions: `sha256:${predicted.outputSha256}`, trainedRows: `sha256:${trainedSha}` });
  }
  const receipt = first.receipt;
  const scored = await step({
    opId: `holdout.compare:${holdout.id}:${shortHash(entries)}`,
    recipe: "evaluation",
    job: "holdout_compare",
    input: {
      holdout: `sha256:${holdout.sha256}`,
      datasetFormat,
      labels: `sha256:${rows.outputSha256}`,
      task: settings.task,
      metric: settings.metric,
      positiveClass: receipt.positiveClass,
      ...(receipt.task !== "regression" ? { classes: receipt.classes } : {}),
      versions: entries,
    },
    label: `${label}: scoring`,
  });
  const out = await readOutput(db, scored, "holdout_compare.json", ZHoldoutComparison);
  return {
    holdout: { id: holdout.id, name: holdout.name },
    metric: out.metric,
    direction: out.direction,
    unit: "rows",
    rows: out.rows,
    excluded: out.excluded,
    results: out.results,
    difference: { estimate: out.difference.estimate, low: out.difference.low, high: out.difference.high, confidence: out.difference.confidence, of: out.difference.of },
  };
}
