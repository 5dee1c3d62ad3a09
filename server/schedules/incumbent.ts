/**
 * The incumbent a scheduled run is compared with: the selected version of a registered
 * tabular model in the project that predicts the same target. Compared only when both
 * evaluation contracts are identical (server/registry/gate.ts comparability): new data
 * usually means a new evaluation snapshot, and then the words say so instead of ranking.
 */
import { ZExperimentSettings } from "@/server/experiments/experiments.schema";
import type { ExperimentResults } from "@/server/experiments/chain-results";
import type { Db } from "@/server/db/client";
import { comparability } from "@/server/registry/gate";
import { SELECTED } from "@/server/registry/registry.schema";
import { registryRepository } from "@/server/registry/registry.repository";
import { evidenceFromColumns, scoreOf } from "@/server/registry/version-evidence";

export interface Verdict {
  words: string;
  /** Worth telling the owner: better than the incumbent, or nothing registered yet. */
  beat: boolean;
}

const fmt = (x: number) => x.toPrecision(4);

export async function verdictAgainstIncumbent(db: Db, projectId: string, target: string, seq: number, results: ExperimentResults): Promise<Verdict> {
  const repo = registryRepository(db);
  const mine = { kind: "tabular" as const, receipt: results.candidate, baseline: results.baseline };
  const score = scoreOf(mine);
  const head = `Run ${seq}: ${score.label} ${fmt(score.value)}`;
  for (const model of await repo.modelsByName(projectId)) {
    const alias = await repo.aliasByName(model.id, SELECTED);
    const version = alias ? await repo.versionById(alias.versionId) : null;
    if (!version || ZExperimentSettings.safeParse(JSON.parse(version.settings)).data?.target !== target) continue;
    const theirs = evidenceFromColumns(version);
    const their = scoreOf(theirs);
    const name = `${model.name} v${version.number}`;
    const c = comparability(mine, theirs);
    if (!c.comparable) return { words: `${head}; ${name} scored ${fmt(their.value)} on other data, so they are not ranked here (${c.reason}).`, beat: false };
    const better = score.direction === "higher_is_better" ? score.value > their.value : score.value < their.value;
    return better
      ? { words: `${head}, better than ${name}'s ${fmt(their.value)} — register?`, beat: true }
      : { words: `${head}, not better than ${name}'s ${fmt(their.value)}.`, beat: false };
  }
  return { words: `${head}; no version predicting "${target}" is selected yet — register?`, beat: true };
}
