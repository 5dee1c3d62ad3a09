/**
 * Live training of a train job, from its events file (the recipe appends one JSON object a
 * line: `metric` train_loss / eval_loss with the step, `progress` with step, total,
 * tokensPerSecond and etaSeconds, `phase` training with the planned steps and the step a
 * resumed attempt starts at). Read through the worker's `logs` op in bounded chunks and
 * remembered per job, so a page polling every few seconds reads only what was appended.
 * Limits: a line that is not JSON, or an event of another shape, is skipped.
 */
import { z } from "zod";
import type { Db } from "@/server/db/client";
import { isTerminal } from "@/server/jobs/job-state";
import { jobsService } from "@/server/jobs/jobs.service";
import type { FineTuneView } from "./finetune.schema";

/** The live part of FineTuneView.training: what the events say before training.json exists. */
export type LiveTraining = Omit<NonNullable<FineTuneView["training"]>, "final" | "slurmStops">;

const num = z.number().finite();
const ZEvent = z.discriminatedUnion("type", [
  z.object({ type: z.literal("metric"), name: z.string(), step: num, value: num, tokensPerSecond: num.nullish() }),
  z.object({ type: z.literal("progress"), done: num, total: num.nullish(), tokensPerSecond: num.nullish(), etaSeconds: num.nullish() }),
  z.object({ type: z.literal("phase"), phase: z.string(), steps: num.nullish(), resumedFromStep: num.nullish() }),
]);

const empty = (): LiveTraining => ({ step: 0, plannedSteps: null, trainLoss: [], evalLoss: [], tokensPerSecond: null, etaSeconds: null, resumedFromStep: null });

/** Folds one events line into the live state. */
export function foldEvent(live: LiveTraining, line: string): void {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return;
  }
  const e = ZEvent.safeParse(raw);
  if (!e.success) return;
  const ev = e.data;
  if (ev.type === "metric" && (ev.name === "train_loss" || ev.name === "eval_loss")) {
    (ev.name === "train_loss" ? live.trainLoss : live.evalLoss).push({ step: ev.step, loss: ev.value });
    live.step = Math.max(live.step, ev.step);
  } else if (ev.type === "progress") {
    live.step = Math.max(live.step, ev.done);
    if (ev.total) live.plannedSteps = ev.total;
    live.tokensPerSecond = ev.tokensPerSecond ?? live.tokensPerSecond;
    live.etaSeconds = ev.etaSeconds ?? null;
  } else if (ev.type === "phase" && ev.phase === "training") {
    if (ev.steps) live.plannedSteps = ev.steps;
    if (ev.resumedFromStep !== undefined) live.resumedFromStep = ev.resumedFromStep ?? null;
  }
}

interface Cached {
  offset: number;
  /** The end of a line cut by the chunk size, kept for the next read. */
  partial: string;
  live: LiveTraining;
  complete: boolean;
}
const CACHE = new Map<string, Cached>();
const CACHE_AT_MOST = 100;
const MAX_CHUNKS_PER_READ = 64;

/** What the train job `jobId` has reported so far (all of it, once the job has ended). */
export async function liveTraining(db: Db, job: { id: string; state: string }): Promise<LiveTraining> {
  const cached = CACHE.get(job.id) ?? { offset: 0, partial: "", live: empty(), complete: false };
  if (cached.complete) return cached.live;
  const ended = isTerminal(job.state);
  const jobs = jobsService(db);
  for (let i = 0; i < MAX_CHUNKS_PER_READ; i++) {
    const chunk = await jobs.logs({ id: job.id, stream: "events", offset: cached.offset, maxBytes: 64 * 1024 });
    const lines = (cached.partial + chunk.data).split("\n");
    cached.partial = lines.pop() ?? "";
    for (const l of lines) if (l.trim()) foldEvent(cached.live, l);
    cached.offset = chunk.nextOffset;
    if (chunk.nextOffset >= chunk.size || chunk.data.length === 0) {
      cached.complete = ended && chunk.eof;
      break;
    }
  }
  if (CACHE.size >= CACHE_AT_MOST && !CACHE.has(job.id)) CACHE.delete(CACHE.keys().next().value!);
  CACHE.set(job.id, cached);
  return cached.live;
}
