/**
 * Fine-tunes compared on a reserved holdout of examples (issue 32): two kinds of job on the
 * computer the versions were trained on — llm-lora holdout_examples (the holdout normalised,
 * each prompt's hash line for line), then the trusted evaluator's holdout_compare, which
 * leaves out every example whose prompt any version trained or was evaluated on, scores each
 * version's adapter (read from its own export archive, checked against its adapterSha256) on
 * the rest with the training's masking, and gives the paired-bootstrap interval of the
 * difference in mean NLL per answer token (lower is better).
 *
 * Refused: a version without its prompts' hashes (fine-tuned before they were kept: fine-tune
 * it again), versions on different base models, computers or maximum lengths.
 */
import { ZLmHoldoutComparison } from "@/contracts/recipes";
import type { Db } from "@/server/db/client";
import { badInput } from "@/server/errors";
import { ensureBlobOn } from "@/server/datasets";
import { readOutput } from "@/server/jobs/read-output";
import { stageBytes } from "@/server/predictions/predict-job";
import type { VersionView } from "@/server/registry/registry-views";
import { stageExportOn } from "@/server/registry/stage-export";
import { servingOfVersion } from "@/server/registry/version-serving";
import { targetsService } from "@/server/targets/targets.service";
import { holdoutsRepository, type HoldoutRow } from "./holdouts.repository";
import type { HoldoutCompareResult } from "./holdouts.schema";
import { holdoutSteps, shortHash } from "./holdout-steps";

interface FineTune {
  view: VersionView;
  baseSha256: string;
  device: "cpu" | "cuda" | "mps";
  maxLength: number;
  trainedPrompts: Buffer;
}

async function fineTuneOf(db: Db, view: VersionView): Promise<FineTune> {
  if (view.evidence.kind !== "lora") throw new Error(`version ${view.number} is not a fine-tune`);
  const evidence = await holdoutsRepository(db).exclusionOf(view.id);
  if (evidence?.kind !== "prompts") {
    throw badInput(`Version ${view.number} has no record of the prompts it was trained on (it was fine-tuned before they were kept), so it cannot claim a holdout score. Fine-tune it again and register the new version.`, {
      code: "no_exclusion_evidence",
      version: view.number,
    });
  }
  const spec = (await servingOfVersion(db, view)).serve;
  if (spec.kind !== "llm") throw new Error(`version ${view.number}'s serving record is not a fine-tune's`);
  return { view, baseSha256: spec.baseSha256, device: spec.device, maxLength: view.evidence.receipt.evaluationContract.maxLength, trainedPrompts: Buffer.from(evidence.content) };
}

function sameBase(all: FineTune[]): void {
  const [first, ...rest] = all;
  for (const f of rest) {
    const differ = (what: string) => badInput(`Versions ${first!.view.number} and ${f.view.number} ${what}: only fine-tunes of one base, scored alike, compare on one holdout.`, { code: "incomparable" });
    if (f.view.targetId !== first!.view.targetId) throw badInput(`Versions ${first!.view.number} and ${f.view.number} were fine-tuned on different computers; their base model is on each one's, so compare versions fine-tuned on the same one.`, { code: "other_computer" });
    if (f.baseSha256 !== first!.baseSha256) throw differ("adapt different base models");
    if (f.maxLength !== first!.maxLength) throw differ(`were scored with different maximum lengths (${first!.maxLength} and ${f.maxLength} tokens)`);
  }
}

export async function compareFineTunesOnHoldout(db: Db, views: VersionView[], holdout: HoldoutRow): Promise<HoldoutCompareResult> {
  const versions = await Promise.all(views.map((v) => fineTuneOf(db, v)));
  sameBase(versions);
  const first = versions[0]!;
  const target = await targetsService(db).requireTarget(first.view.targetId);
  await ensureBlobOn(db, target, holdout.sha256);
  const step = holdoutSteps(db, target.id);
  const label = `Comparing on the holdout ${holdout.name}`;

  const examples = await step({
    opId: `holdout.examples:${holdout.id}`,
    recipe: "llm-lora",
    job: "holdout_examples",
    input: { data: `sha256:${holdout.sha256}` },
    label: `${label}: preparing its examples`,
  });
  const entries = [];
  for (const v of versions) {
    await stageExportOn(db, target.id, v.view.exportSha256);
    const promptsSha = await stageBytes(db, v.trainedPrompts, `version ${v.view.number}'s trained prompts`);
    await ensureBlobOn(db, target, promptsSha);
    entries.push({ version: v.view.number, adapter: `sha256:${v.view.exportSha256}`, adapterSha256: v.view.modelSha256, trainedPrompts: `sha256:${promptsSha}` });
  }
  const scored = await step({
    opId: `holdout.compare-lm:${holdout.id}:${shortHash([entries, first.maxLength, first.device])}`,
    recipe: "evaluation-lm",
    job: "holdout_compare",
    input: { model: `sha256:${first.baseSha256}`, data: `sha256:${examples.outputSha256}`, versions: entries, device: first.device, maxLength: first.maxLength },
    label: `${label}: scoring`,
  });
  const out = await readOutput(db, scored, "holdout_compare.json", ZLmHoldoutComparison);
  return {
    holdout: { id: holdout.id, name: holdout.name },
    metric: out.metric,
    direction: "lower_is_better",
    unit: "examples",
    rows: out.examples,
    excluded: { total: out.excluded.total, byVersion: out.excluded.byVersion },
    results: out.results,
    difference: { estimate: out.difference.estimate, low: out.difference.low, high: out.difference.high, confidence: out.difference.confidence, of: out.difference.of },
  };
}
