/**
 * The leaderboard as shown: best first, the model training kept marked (training.json
 * `bestModel`, else the first row), and a sentence when every candidate scored the same,
 * so a flat chart is not mistaken for a broken one. Pure; unit-tested.
 */
import type { LeaderboardModel } from "@/contracts/recipes";

/** The part of leaderboard.json (contracts/recipes ZLeaderboard) the view reads. */
interface LeaderboardRead {
  metric?: string;
  models: Pick<LeaderboardModel, "model" | "validationScore" | "fitSeconds">[];
}

export interface LeaderboardRow {
  model: string;
  validationScore: number | null;
  fitSeconds: number | null;
  chosen: boolean;
}

export interface LeaderboardView {
  models: LeaderboardRow[];
  /** Set when all candidates, or several at the top, have the same validation score. */
  tie: string | null;
  /** Every candidate scored the same: a bar chart would show nothing. */
  allTied: boolean;
}

export function leaderboardView(lb: LeaderboardRead | null | undefined, bestModel: string | null): LeaderboardView | null {
  const models = lb?.models ?? [];
  if (!models.length) return null;
  const chosen = bestModel && models.some((m) => m.model === bestModel) ? bestModel : models[0]!.model;
  const rows = models.map((m) => ({ model: m.model, validationScore: m.validationScore ?? null, fitSeconds: m.fitSeconds ?? null, chosen: m.model === chosen }));
  const scores = rows.map((r) => r.validationScore);
  const allSame = rows.length > 1 && scores.every((s) => s !== null && Math.abs(s - scores[0]!) < 1e-12);
  const best = scores[0];
  const atTop = best === null || best === undefined ? 0 : scores.filter((s) => s !== null && Math.abs(s - best) < 1e-12).length;
  const tie = allSame
    ? `All ${rows.length} candidates scored the same on validation (${lb?.metric ?? "score"} ${best}), so the choice among them is arbitrary: ${chosen} was kept.`
    : atTop > 1
      ? `${atTop} of the ${rows.length} candidates tied for the best validation score (${lb?.metric ?? "score"} ${best}); ${chosen} was kept.`
      : null;
  return { models: rows, tie, allTied: allSame };
}
