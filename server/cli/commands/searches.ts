/**
 * `trainyard searches list|show|pause|resume|stop|propose|cancel-trial` against the
 * running server (issue 17). Start one with `trainyard train --mode improve`.
 */
import { z } from "zod";
import { ZTrialParams } from "@/contracts/recipes/search";
import { randomUUID } from "node:crypto";
import { CliError } from "../cli-error";
import { parseSubcommand, requiredArg } from "../subcommand-args";
import { connect, withRetry } from "../api-client";
import { projectId } from "./experiments";
import { paramsWords } from "@/contracts/searches/params-words";

const USAGE = `Usage:
  trainyard searches list [--project NAME] [--json]
  trainyard searches show ID [--json]
  trainyard searches pause|resume|stop ID
  trainyard searches propose ID --params JSON --hypothesis TEXT [--json]
  trainyard searches cancel-trial TRIAL_ID [--project NAME]
Start a search with: trainyard train --mode improve …`;

const round = (v: number | null | undefined) => (v === null || v === undefined ? "—" : String(Number(v.toPrecision(4))));

export async function searchesCommand(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv.includes("--help") || argv.includes("-h")) {
    console.log(USAGE);
    return argv.length === 0 ? 2 : 0;
  }
  const { sub, values, positionals } = parseSubcommand(argv, { params: { type: "string" }, hypothesis: { type: "string" } });
  const need = requiredArg(USAGE);
  const conn = connect();
  switch (sub) {
    case "list": {
      const pid = await projectId(conn, values.project!);
      const list = await withRetry(() => conn.api.searches.list.query({ projectId: pid }));
      if (values.json) console.log(JSON.stringify(list, null, 2));
      else if (list.length === 0) console.log("No searches yet. Start one with: trainyard train --mode improve …");
      else
        for (const s of list)
          console.log(`${s.id}  ${s.status.padEnd(10)}  ${s.budget.trialsBooked}/${s.spec.budget.maxTrials} trials  best ${round(s.best?.validationValue)}  ${s.name}`);
      return 0;
    }
    case "show": {
      const id = need(positionals[0], "the search id");
      const s = await withRetry(() => conn.api.searches.get.query({ id }));
      if (values.json) {
        console.log(JSON.stringify(s, null, 2));
        return 0;
      }
      const metric = s.spec.objective.metric;
      console.log(`${s.name}: ${s.status}${s.reason ? ` (${s.reason})` : ""}`);
      console.log(`Budget: ${Math.round(s.budget.wallUsedSeconds)} of ${s.budget.wallBudgetSeconds} s, ${s.budget.trialsBooked} of ${s.spec.budget.maxTrials} trials${s.spec.budget.parallelTrials > 1 ? `, ${s.spec.budget.parallelTrials} at once` : ""}`);
      for (const t of s.trials) {
        const who = t.proposer.kind === "agent" ? `agent ${t.proposer.name}` : `planner (${t.proposer.sampler}${t.proposer.round ? `, round of trials ${t.proposer.round.first}–${t.proposer.round.first + t.proposer.round.size - 1}` : ""})`;
        console.log(`  trial ${t.number}  ${t.status.padEnd(9)}  validation ${metric} ${round(t.validationValue)}  ${paramsWords(t.params)}  — ${who}${t.rejection.length ? `: ${t.rejection.join(" ")}` : ""}`);
      }
      if (s.outcome?.kind === "candidate") console.log(`Chosen: trial ${s.outcome.trialNumber} (validation ${round(s.outcome.validationValue)}, baseline ${round(s.outcome.baselineValidationValue)})`);
      else if (s.outcome) console.log(`Keep the baseline: ${s.outcome.reason}`);
      if (s.final) console.log(`Test (scored once): ${metric} ${round(s.final.candidate?.primaryValue)} (baseline ${round(s.final.baseline?.primaryValue)}); experiment ${s.final.experimentId} ${s.final.status}`);
      return 0;
    }
    case "pause":
    case "resume":
    case "stop": {
      const id = need(positionals[0], "the search id");
      const s = await withRetry(() => conn.api.searches.get.query({ id }));
      const next = await withRetry(() => conn.api.searches[sub].mutate({ id, revision: s.revision }));
      console.log(`${next.name}: ${next.status}`);
      return 0;
    }
    case "propose": {
      const id = need(positionals[0], "the search id");
      let params;
      try {
        params = ZTrialParams.parse(JSON.parse(need(values.params, "--params JSON")));
      } catch (err) {
        throw new CliError(`--params must be a JSON object of parameter values: ${err instanceof z.ZodError ? err.issues.map((i) => i.message).join("; ") : (err as Error).message}`, 2);
      }
      const s = await withRetry(() => conn.api.searches.get.query({ id }));
      const opId = randomUUID();
      const answer = await withRetry(() => conn.api.searches.propose.mutate({ projectId: s.projectId, searchId: id, opId, hypothesis: need(values.hypothesis, "--hypothesis TEXT"), params }));
      if (values.json) console.log(JSON.stringify(answer, null, 2));
      else if (answer.accepted) console.log(`Accepted as trial ${answer.number}; it runs when its turn comes.`);
      else console.log(`Rejected (recorded as proposal ${answer.number}):\n${answer.reasons.map((r) => `  - ${r}`).join("\n")}`);
      return answer.accepted ? 0 : 1;
    }
    case "cancel-trial": {
      const trialId = need(positionals[0], "the trial id");
      const pid = await projectId(conn, values.project!);
      const t = await withRetry(() => conn.api.searches.cancelTrial.mutate({ projectId: pid, trialId }));
      console.log(`Trial ${t.number}: ${t.status === "cancelled" ? "cancelled" : "cancelling"}`);
      return 0;
    }
    default:
      throw new CliError(`Unknown subcommand "${sub}".\n${USAGE}`, 2);
  }
}
