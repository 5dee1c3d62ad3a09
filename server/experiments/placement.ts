/**
 * "Any computer that fits" (`--computer any`): the computer a new experiment, fine-tune or
 * search runs on, chosen once when it starts from each enabled computer's live capacity,
 * and the reason recorded beside it. A Slurm computer is judged by its partition (idle
 * CPUs, jobs waiting in Slurm's queue: Slurm keeps that queue, not Trainyard); any other by
 * the CPUs its active jobs hold or wait for. Among those where work can start now, a server
 * or cluster goes before This computer (which also serves the app), then the most free CPUs.
 * When none has room, the project's default computer is used and the reason says so: there
 * is no queue across computers.
 */
import { z } from "zod";
import type { Db } from "@/server/db/client";
import { badInput } from "@/server/errors";
import { ANY_COMPUTER } from "@/server/targets/computer-names";
import { targetsService } from "@/server/targets/targets.service";
import type { TargetView, TProbe } from "@/server/targets/targets.schema";
import { freeCpus } from "./chain-jobs";

export const ZComputerFit = z.object({
  name: z.string(),
  fits: z.boolean(),
  freeCpus: z.number().nullable(),
  /** Jobs waiting there (a Slurm partition's queue); null when unknown. */
  waiting: z.number().nullable(),
  why: z.string(),
});
export const ZPlacement = z.object({ chosen: z.string(), why: z.string(), considered: z.array(ZComputerFit) });
export type TPlacement = z.infer<typeof ZPlacement>;
type Fit = z.infer<typeof ZComputerFit> & { targetId: string; thisComputer: boolean };

/** A fresh probe each time: a partition fills in seconds, and an older answer chose wrongly. */
const PROBE_MAX_AGE_MS = 0;

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

function slurmFit(t: TargetView, slurm: NonNullable<TProbe["slurm"]>): Fit {
  const base = { targetId: t.id, name: t.name, thisComputer: t.thisComputer };
  if (!slurm.controllerUp) return { ...base, fits: false, freeCpus: null, waiting: null, why: "its Slurm controller does not answer" };
  const p = slurm.partitions.find((x) => x.name === slurm.partition);
  if (!p) return { ...base, fits: false, freeCpus: null, waiting: null, why: `Slurm has no partition ${slurm.partition}` };
  if (p.state !== "up") return { ...base, fits: false, freeCpus: null, waiting: slurm.pendingJobs, why: `partition ${p.name} is ${p.state}` };
  const idle = p.idleCpus ?? 0;
  const waiting = slurm.pendingJobs ?? 0;
  const total = p.cpusPerNode !== null ? ` of ${p.cpusPerNode * p.nodes}` : "";
  return { ...base, fits: idle > 0 && waiting === 0, freeCpus: idle, waiting, why: `partition ${p.name} has ${idle}${total} CPUs idle and ${plural(waiting, "job")} waiting` };
}

async function fitOf(db: Db, t: TargetView): Promise<Fit> {
  const base = { targetId: t.id, name: t.name, thisComputer: t.thisComputer };
  let probe: TProbe;
  try {
    probe = (await targetsService(db).freshProbe(t.id, PROBE_MAX_AGE_MS)).probe;
  } catch (err) {
    return { ...base, fits: false, freeCpus: null, waiting: null, why: `it did not answer (${(err as Error).message})` };
  }
  if (probe.slurm) return slurmFit(t, probe.slurm);
  const capacity = Math.max(1, Math.floor(probe.capacity.cpus));
  const free = await freeCpus(db, t.id, capacity);
  return { ...base, fits: free > 0, freeCpus: free, waiting: null, why: `${free} of ${capacity} CPUs free` };
}

/** Chooses a computer for work that starts now; `fallbackId` (the project's default) when none has room. */
export async function placeOnAnyComputer(db: Db, fallbackId: string): Promise<{ targetId: string; placement: TPlacement }> {
  const candidates = (await targetsService(db).list()).filter((t) => t.enabled && !t.outdatedWorker);
  const fits = await Promise.all(candidates.map((t) => fitOf(db, t)));
  const order = (a: Fit, b: Fit) => Number(a.thisComputer) - Number(b.thisComputer) || (b.freeCpus ?? 0) - (a.freeCpus ?? 0);
  const chosen = fits.filter((f) => f.fits).sort(order)[0];
  const considered = fits.map(({ targetId: _id, thisComputer: _tc, ...f }) => f);
  const others = fits.filter((f) => f !== chosen).map((f) => `${f.name}: ${f.why}`);
  if (chosen) {
    const why = `${chosen.name}: ${chosen.why}${others.length ? `. Not chosen: ${others.join("; ")}` : ""}.`;
    return { targetId: chosen.targetId, placement: { chosen: chosen.name, why, considered } };
  }
  const fallback = candidates.find((t) => t.id === fallbackId) ?? candidates.find((t) => t.thisComputer);
  if (!fallback) throw badInput("No training computer is enabled.");
  return {
    targetId: fallback.id,
    placement: { chosen: fallback.name, why: `No computer has room now (${others.join("; ")}): it waits on ${fallback.name}, the project's default.`, considered },
  };
}

/**
 * The computer work asked for, as its intent records it: an id, or "any" (chosen later, once
 * the operation is known to be new, with `placedOn`). Nothing asked: `fallbackId`.
 */
export const askedComputer = (targetId: string | undefined, fallbackId: () => Promise<string>): Promise<string> =>
  targetId !== undefined ? Promise.resolve(targetId) : fallbackId();

/** Where work asked for on `asked` runs, and, for "any", how that was chosen. */
export async function placedOn(db: Db, asked: string, fallbackId: () => Promise<string>): Promise<{ targetId: string; placement: TPlacement | null }> {
  if (asked !== ANY_COMPUTER) return { targetId: asked, placement: null };
  return placeOnAnyComputer(db, await fallbackId());
}
