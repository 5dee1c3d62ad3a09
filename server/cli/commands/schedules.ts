/** `trainyard schedules create|list|show|run|pause|resume|remove` against the running server (docs/schedules.md). */
import { randomUUID } from "node:crypto";
import type { CreateScheduleInput, ScheduleClock, ScheduleRunView, ScheduleView } from "@/contracts/schedules/schedules";
import { CliError } from "../cli-error";
import { connect, withRetry, type Connection } from "../api-client";
import { minutesFlag, wholeFlag } from "../flag-numbers";
import { resolveComputer, resolveProject } from "../resolve-names";
import { parseSubcommand, requiredArg } from "../subcommand-args";
import { waitUntil } from "../train/follow";
import { refusalsKept } from "./models";

export const USAGE = `Usage:
  trainyard schedules create --project NAME (--source PATH | --dataset NAME) --target COLUMN
                             [--every DURATION | --daily HH:MM [--tz ZONE] [--weekdays]]
                             [--mode quick|improve] [--max-minutes M] [--max-runs N] [--max-compute-minutes M]
                             [--min-new-rows N] [--stable-seconds S] [--computer NAME] [--name NAME] [--paused] [--json]
  trainyard schedules create --project NAME (--source PATH | --dataset NAME) --mode finetune --base MODEL_PATH
                             [--max-steps N] [--max-minutes M] [...the clock and caps as above]
  trainyard schedules list [--project NAME] [--json]
  trainyard schedules show|run|pause|resume|remove ID [--json]
A schedule retrains on the file at PATH (on --computer, default the project's computer;
inside its allowed folders) at each slot of its clock: --every 30m, 6h, 1d or 1w, or --daily
09:30 in --tz (an IANA zone, default UTC), --weekdays for Monday to Friday only. A tick uses
the file once it stayed unchanged for --stable-seconds (default 10); the same data under the
same settings is a no-op, a tick while a run trains is coalesced into one run on the latest
data after it, and slots missed while the server was stopped are one run, not many.
--dataset NAME reads the project's newest upload of that name instead of a file. --mode
finetune trains a LoRA adapter of the base model at MODEL_PATH (a folder or GGUF file on the
computer) on a .jsonl file of examples. run asks for a run now and waits for the tick's
decision (started, no_op, coalesced, refused).`;

const print = (json: boolean, value: unknown, text: () => string) => console.log(json ? JSON.stringify(value, null, 2) : text());

const EVERY_UNITS = { m: 1, h: 60, d: 1440, w: 10080 } as const;

/** `30m`, `6h`, `1d`, `2w` as minutes. */
export function everyMinutes(text: string): number {
  const m = /^(\d{1,6})(m|h|d|w)$/.exec(text.trim());
  const minutes = m ? Number(m[1]) * EVERY_UNITS[m[2] as keyof typeof EVERY_UNITS] : NaN;
  if (!m || minutes < 1 || minutes > 366 * 1440) {
    throw new CliError(`--every takes a whole number and m (minutes), h, d or w, from 1m up to 366d, e.g. 30m or 6h (got ${text}).\n${USAGE}`, 2);
  }
  return minutes;
}

function clockOf(values: { every?: string; daily?: string; tz?: string; weekdays?: boolean }): ScheduleClock {
  if (values.every && values.daily) throw new CliError(`Give --every or --daily, not both.\n${USAGE}`, 2);
  if (values.daily) return { kind: "daily", at: values.daily, tz: values.tz ?? "UTC", weekdays: values.weekdays ?? false };
  if (values.tz || values.weekdays) throw new CliError(`--tz and --weekdays go with --daily.\n${USAGE}`, 2);
  return { kind: "every", minutes: everyMinutes(values.every ?? "1d") };
}

type CreateFlags = Partial<Record<"source" | "dataset" | "target" | "base" | "mode" | "max-minutes" | "max-steps" | "stable-seconds", string>>;

function sourceOf(values: CreateFlags, computerId: string | undefined): CreateScheduleInput["source"] {
  const computer = computerId ? { computerId } : {};
  if (values.source && values.dataset) throw new CliError(`Give --source or --dataset, not both.\n${USAGE}`, 2);
  if (values.dataset) return { kind: "dataset", name: values.dataset, ...computer };
  if (!values.source) throw new CliError(`Missing --source PATH (or --dataset NAME).\n${USAGE}`, 2);
  const stable = wholeFlag(values["stable-seconds"], "--stable-seconds", USAGE);
  return { kind: "path", path: values.source, ...computer, ...(stable ? { stableSeconds: stable } : {}) };
}

function specOf(values: CreateFlags): CreateScheduleInput["spec"] {
  const maxMinutes = minutesFlag(values["max-minutes"], "--max-minutes", USAGE);
  const minutes = maxMinutes ? { maxMinutes } : {};
  if (values.mode === "finetune") {
    if (!values.base) throw new CliError(`--mode finetune needs --base MODEL_PATH.\n${USAGE}`, 2);
    const maxSteps = wholeFlag(values["max-steps"], "--max-steps", USAGE);
    return { mode: "finetune", basePath: values.base, ...minutes, ...(maxSteps ? { maxSteps } : {}) };
  }
  if (values.mode !== "quick" && values.mode !== "improve") throw new CliError(`--mode is quick, improve or finetune (got ${values.mode}).\n${USAGE}`, 2);
  if (!values.target) throw new CliError(`Missing --target COLUMN.\n${USAGE}`, 2);
  return { mode: values.mode, target: values.target, ...minutes };
}

const runJson = (r: ScheduleRunView) => ({ seq: r.seq, trigger: r.trigger, outcome: r.outcome, reason: r.reason, experimentId: r.experimentId, searchId: r.searchId, status: r.status, result: r.result, slotAt: r.slotAt });

const sourceWords = (s: ScheduleView) => (s.source.kind === "path" ? s.source.path : `the newest "${s.source.name}" upload`);
const specWords = (s: ScheduleView) =>
  s.spec.mode === "finetune" ? `LoRA fine-tune of ${s.spec.basePath}` : `${s.spec.mode === "quick" ? "Quick baseline" : "Improve within a budget"} of "${s.spec.target}"`;

function scheduleText(s: ScheduleView): string {
  const next = s.nextSlotAt ? `next ${new Date(s.nextSlotAt).toISOString()}` : s.state;
  const caps = [s.maxRuns ? `${s.runsStarted}/${s.maxRuns} runs` : `${s.runsStarted} runs`, s.maxComputeMinutes ? `${s.computeMinutesUsed}/${s.maxComputeMinutes} compute min` : null].filter(Boolean).join(", ");
  return [
    `Schedule ${s.id} "${s.name}" (revision ${s.revision}): ${s.state}${s.reason ? ` — ${s.reason}` : ""}`,
    `  ${specWords(s)} on ${sourceWords(s)} (${s.computer}), ${s.clockWords}; ${next}; ${caps}${s.pendingLatest ? "; a run on the latest data waits for the current one" : ""}`,
    ...(s.lastResult ? [`  Last: ${s.lastResult}`] : []),
    ...s.runs.map((r) => `  #${r.seq} ${r.trigger.padEnd(6)} ${r.outcome.padEnd(9)} ${r.status ?? ""} ${r.result ?? r.reason ?? ""}`.trimEnd()),
  ].join("\n");
}

/** Waits until run `seq` of the schedule is decided (no longer admitting). */
async function decided(conn: Connection, id: string, seq: number): Promise<ScheduleRunView> {
  const s = await waitUntil(
    () => conn.api.schedules.show.query({ id }),
    (v) => v.runs.some((r) => r.seq === seq && r.outcome !== "admitting"),
    { what: `run ${seq} of schedule ${id}`, everyMs: 1000, timeoutMs: 30 * 60_000, onWait: (m) => console.error(m) },
  );
  return s.runs.find((r) => r.seq === seq)!;
}

export async function schedulesCommand(argv: string[]): Promise<number> {
  const { sub, values, positionals } = parseSubcommand(argv, {
    source: { type: "string" },
    dataset: { type: "string" },
    target: { type: "string" },
    base: { type: "string" },
    "max-steps": { type: "string" },
    every: { type: "string" },
    daily: { type: "string" },
    tz: { type: "string" },
    weekdays: { type: "boolean" },
    mode: { type: "string", default: "quick" },
    "max-minutes": { type: "string" },
    "max-runs": { type: "string" },
    "max-compute-minutes": { type: "string" },
    "min-new-rows": { type: "string" },
    "stable-seconds": { type: "string" },
    computer: { type: "string" },
    name: { type: "string" },
    paused: { type: "boolean", default: false },
  });
  const json = values.json ?? false;
  const need = requiredArg(USAGE);
  const conn = connect();
  const api = conn.api.schedules;
  switch (sub) {
    case "create": {
      const project = await resolveProject(conn, values.project!);
      const computerId = values.computer ? await resolveComputer(conn, values.computer) : undefined;
      // One opId for every retry: a create the server got before the connection dropped makes one schedule.
      const opId = randomUUID();
      const input = {
        opId,
        projectId: project.id,
        ...(values.name ? { name: values.name } : {}),
        source: sourceOf(values, computerId),
        spec: specOf(values),
        clock: clockOf(values),
        maxRuns: wholeFlag(values["max-runs"], "--max-runs", USAGE) ?? null,
        maxComputeMinutes: minutesFlag(values["max-compute-minutes"], "--max-compute-minutes", USAGE) ?? null,
        minNewRows: values["min-new-rows"] === undefined ? 0 : (wholeFlag(values["min-new-rows"], "--min-new-rows", USAGE) ?? 0),
        paused: values.paused ?? false,
      };
      const s = await refusalsKept(() => withRetry(() => api.create.mutate(input)));
      print(json, { id: s.id }, () => scheduleText(s));
      return 0;
    }
    case "list": {
      const project = await resolveProject(conn, values.project!);
      const all = await withRetry(() => api.list.query({ projectId: project.id }));
      print(json, all.map((s) => ({ ...s, runs: s.runs.map(runJson) })), () => (all.length ? all.map(scheduleText).join("\n\n") : `"${project.name}" has no schedule. Make one: trainyard schedules create --help`));
      return 0;
    }
    case "show": {
      const s = await withRetry(() => api.show.query({ id: need(positionals[0], "ID") }));
      print(json, { ...s, runs: s.runs.map(runJson) }, () => scheduleText(s));
      return 0;
    }
    case "run": {
      const id = need(positionals[0], "ID");
      const asked = await refusalsKept(() => api.runNow.mutate({ id }));
      const run = asked.seq === null ? null : await decided(conn, id, asked.seq);
      const answer = run ? { seq: run.seq, outcome: run.outcome, reason: run.reason, experimentId: run.experimentId } : { seq: null, outcome: asked.outcome, reason: asked.reason, experimentId: null };
      print(json, answer, () => `${answer.seq ? `Run ${answer.seq}: ` : ""}${answer.outcome}${answer.reason ? ` — ${answer.reason}` : ""}${answer.experimentId ? ` (experiment ${answer.experimentId})` : ""}`);
      return answer.outcome === "refused" ? 1 : 0;
    }
    case "pause":
    case "resume":
    case "remove": {
      const id = need(positionals[0], "ID");
      const { revision } = await withRetry(() => api.show.query({ id }));
      if (sub === "remove") {
        const r = await refusalsKept(() => api.remove.mutate({ id, revision }));
        print(json, r, () => `Schedule ${id} removed; the experiments it started stay.`);
        return 0;
      }
      const s = await refusalsKept(() => (sub === "pause" ? api.pause.mutate({ id, revision }) : api.resume.mutate({ id, revision })));
      print(json, { ...s, runs: s.runs.map(runJson) }, () => scheduleText(s));
      return 0;
    }
    default:
      throw new CliError(USAGE, 2);
  }
}
