/**
 * Rounds of trials (issue 33): on a computer that queues in Slurm, a search that runs K
 * trials at once plans up to 2K trials together — each booked against the budget as
 * always, the planner given the others of the round as running — and starts them together,
 * so that their trainings go to Slurm as one job array, `--array=0-(N-1)%K`: Slurm keeps
 * the round in its queue and runs K at a time. The planner learns from a round once it
 * has ended; the next round starts then. Elsewhere a search books trial by trial.
 */
import { ZProposer, type SearchSpec } from "@/contracts/searches/search-spec";
import type { TSlurmArrayMember } from "@/contracts/worker";
import type { Db } from "@/server/db/client";
import { slurmQueueSeconds } from "@/server/experiments/chain-budget";
import { ownOpId } from "@/server/experiments/chain-jobs";
import { experimentsRepository } from "@/server/experiments/experiments.repository";
import { targetsService } from "@/server/targets/targets.service";
import { finalReserveSeconds, nextReservation, wallLeftSeconds } from "./search-budget";
import { searchesRepository, type SearchRow, type TrialRow } from "./searches.repository";

export interface Round {
  /** The number of its first trial. */
  first: number;
  /** How many trials it plans. */
  size: number;
}

/** The round a trial was planned in; null for a trial booked on its own. */
export function roundOf(t: Pick<TrialRow, "proposer">): Round | null {
  const p = ZProposer.parse(JSON.parse(t.proposer));
  return p.kind === "planner" ? (p.round ?? null) : null;
}

/**
 * How many trials the next round plans: up to two for each trial run at once, no more
 * than the trial count has left, and no more waves of K than the wall budget holds at
 * the next trial's booking. 1 (trial by trial) when trials run one at a time.
 */
export function roundSize(spec: SearchSpec, booked: number, used: number, longest: number | null): number {
  const k = spec.budget.parallelTrials;
  const reserve = nextReservation(spec, used, longest);
  if (k < 2 || reserve === null) return 1;
  const waves = Math.max(1, Math.floor((wallLeftSeconds(spec, used) - finalReserveSeconds(spec, longest)) / reserve));
  return Math.max(1, Math.min(spec.budget.maxTrials - booked, 2 * k, k * waves));
}

/** The newest round while it still has trials to plan; null when there is none. */
type Planned = Pick<TrialRow, "proposer" | "number">;

export function openRound(trials: readonly Planned[]): Round | null {
  const planned = trials.flatMap((t) => {
    const r = roundOf(t);
    return r ? [r] : [];
  });
  const newest = planned.reduce<Round | null>((a, r) => (a === null || r.first > a.first ? r : a), null);
  if (!newest) return null;
  const booked = trials.filter((t) => roundOf(t)?.first === newest.first).length;
  return booked < newest.size ? newest : null;
}

/** The Slurm array task a round's trial trains as: its round's trials booked so far are the array. */
export function arrayMember(searchId: string, t: Planned, trials: readonly Planned[], parallelTrials: number): TSlurmArrayMember | null {
  const round = roundOf(t);
  if (!round) return null;
  const members = trials.filter((x) => roundOf(x)?.first === round.first).map((x) => x.number).sort((a, b) => a - b);
  return { group: `search-${searchId}-round-${round.first}`, size: members.length, limit: parallelTrials, index: members.indexOf(t.number) };
}

/** The trials of a round being planned that wait for the rest of it to start. */
export const heldIn = (trials: TrialRow[], round: Round | null) => (round ? trials.filter((t) => t.status === "reserved" && !t.experimentId && roundOf(t)?.first === round.first) : []);

/**
 * What a trial took, the measure of what the next ones need: from its booking; a round's
 * trial from its experiment's start, less the time its training waited in Slurm's queue —
 * its round's planning and its array's `%K` are not its own.
 */
export async function trialSeconds(db: Db, t: TrialRow, exp: { opId: string; startedAt: Date }, ended: Date): Promise<number> {
  if (!roundOf(t)) return (ended.getTime() - (t.reservedAt ?? exp.startedAt).getTime()) / 1000;
  const [train] = await experimentsRepository(db).jobsByOpIds([ownOpId(exp.opId, "train")]);
  return Math.max(0, (ended.getTime() - exp.startedAt.getTime()) / 1000 - slurmQueueSeconds(train, ended));
}

/**
 * The round the next trial opens, on a computer that queues in Slurm once the last round
 * has ended (`wait` until then); null: book trial by trial.
 */
export async function nextRound(db: Db, s: SearchRow, spec: SearchSpec, booked: number, used: number, longest: number | null, stillActive: number): Promise<Round | null | "wait"> {
  if (spec.strategy === "agents" || spec.budget.parallelTrials < 2) return null;
  const target = await targetsService(db).get(s.targetId);
  if (target.kind !== "slurm") return null;
  if (stillActive > 0) return "wait";
  const size = roundSize(spec, booked, used, longest);
  return size > 1 ? { first: await searchesRepository(db).nextNumber(s.id), size } : null;
}
