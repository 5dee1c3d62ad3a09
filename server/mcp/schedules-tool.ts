/**
 * list_schedules: the bound project's schedules (issue 31; docs/schedules.md) with each
 * run's decision (started, no-op, coalesced, refused) and its experiment. Without the
 * results in words: they quote test scores, which no agent tool returns.
 */
import { ZListSchedulesToolInput, ZListSchedulesToolOutput } from "@/contracts/schedules/schedules";
import { tool } from "./tool-spec";

export const listSchedules = tool({
  name: "list_schedules",
  description:
    "The project's schedules (retraining on a file at a clock's slots): state, clock in words, next slot, caps and what they used, and every run's decision — started (with its experiment), no_op (data unchanged), coalesced (a slot during a run) or refused — with the reason. Scores are in get_experiment (validation only).",
  input: ZListSchedulesToolInput,
  output: ZListSchedulesToolOutput,
  async run(scope) {
    const { api, call } = scope;
    const all = await call(() => api.schedules.list.query({ projectId: scope.projectId }));
    return { schedules: all.map(({ lastResult: _l, runs, ...s }) => ({ ...s, runs: runs.map(({ result: _r, ...r }) => r) })) };
  },
});
