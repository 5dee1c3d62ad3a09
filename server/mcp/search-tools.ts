/**
 * The search tools of `trainyard mcp`: read a project's searches on validation only, propose
 * a trial, cancel one, and promote a model version when the owner allows it. Proposals and
 * cancels go through the searches service over the API (searches.propose / cancelTrial), the
 * same path as the UI: nothing here books or spawns work. Every id is checked against the
 * bound project by the server, and answered as not found when it is another project's.
 */
import { randomUUID } from "node:crypto";
import { TABULAR_SPACE } from "@/contracts/searches/tabular-space";
import { scopedCall, type ProjectScope } from "./project-scope";
import {
  ZCancelTrialInput,
  ZCancelTrialOutput,
  ZGetSearchInput,
  ZGetValidationResultsInput,
  ZListSearchesInput,
  ZListSearchesOutput,
  ZProposeExperimentInput,
  ZProposeExperimentOutput,
  ZSearchDetail,
  ZValidationResultsOutput,
} from "./search-shapes";
import { BUDGET_RULES, searchDetail, searchSummary, spaceWords, validationResults, type SearchValidation } from "./search-mappers";
import { promoteVersion } from "./promote-tool";
import { tool, type AgentTool } from "./tool-spec";

const searchOf = (scope: ProjectScope, id: string): Promise<SearchValidation> =>
  scopedCall(scope, "search", id, () => scope.api.searches.validation.query({ projectId: scope.projectId, id }));

const listSearches = tool({
  name: "list_searches",
  description:
    "The project's searches, newest first: status, strategy (tpe: the planner proposes, agents may add; agents: only proposals run), metric and direction, budget used and left, the best trial's validation score and, once ended, the outcome on validation. No test score.",
  input: ZListSearchesInput,
  output: ZListSearchesOutput,
  async run(scope) {
    const all = await scope.call(() => scope.api.searches.list.query({ projectId: scope.projectId }));
    const newest = [...all].sort((a, b) => new Date(b.createdAt).getTime() - new Date(a.createdAt).getTime());
    return { searches: newest.map(searchSummary) };
  },
});

const getSearch = tool({
  name: "get_search",
  description:
    "One search of the project: its frozen settings and space, budget used and left, and every trial in its ledger (who proposed it and why, its settings, status, booked and used seconds, validation score; rejected proposals with their reasons). Validation only: the final test scoring is never included.",
  input: ZGetSearchInput,
  output: ZSearchDetail,
  run: async (scope, input) => searchDetail(await searchOf(scope, input.searchId)),
});

const getValidationResults = tool({
  name: "get_validation_results",
  description:
    "A search's trials and their validation scores (the search's metric on the validation partition), the best so far, and the baseline's validation score once the search ended. Validation only.",
  input: ZGetValidationResultsInput,
  output: ZValidationResultsOutput,
  run: async (scope, input) => validationResults(await searchOf(scope, input.searchId)),
});

const proposeExperiment = tool({
  name: "propose_experiment",
  description:
    "Propose one trial to a search: a hypothesis and the trial's settings. Answers accepted with the trial id (it waits until the search runs it), or rejected with every reason (fix them all and propose again). " +
    `The space of tabular searches (get_search shows a search's own): ${spaceWords(TABULAR_SPACE)}. ` +
    'Give "family" and exactly the parameters of that family, e.g. {"family":"GBM","GBM.learning_rate":0.05,"GBM.num_leaves":31,"GBM.min_data_in_leaf":10}. ' +
    BUDGET_RULES,
  input: ZProposeExperimentInput,
  output: ZProposeExperimentOutput,
  writes: true,
  async run(scope, input) {
    const opId = input.opId ?? `mcp:${randomUUID()}`;
    const r = await scopedCall(scope, "search", input.searchId, () =>
      scope.api.searches.propose.mutate({ projectId: scope.projectId, searchId: input.searchId, opId, hypothesis: input.hypothesis, params: input.params }),
    );
    if (r.accepted) {
      return { accepted: true, trialId: r.trialId, number: r.number, status: r.status, reasons: [], next: `Trial ${r.number} waits for its turn; follow it with get_search.` };
    }
    return { accepted: false, trialId: r.trialId, number: r.number, status: null, reasons: r.reasons, next: "Nothing runs. Fix every reason and propose again (with a new opId)." };
  },
});

const cancelTrial = tool({
  name: "cancel_trial",
  description:
    "Cancel one trial of a search: a proposal still waiting is cancelled at once, a running trial through its experiment (the search goes on with the budget that is left). A trial that ended cannot be cancelled.",
  input: ZCancelTrialInput,
  output: ZCancelTrialOutput,
  writes: true,
  run: (scope, input) => scopedCall(scope, "trial", input.trialId, () => scope.api.searches.cancelTrial.mutate({ projectId: scope.projectId, trialId: input.trialId })),
});

export const SEARCH_TOOLS: readonly AgentTool[] = [listSearches, getSearch, getValidationResults, proposeExperiment, cancelTrial, promoteVersion];


