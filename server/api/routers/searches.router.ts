/**
 * Searches (issue 17): thin procedures over server/searches. `validation`, `propose` and
 * `cancelTrial` take the caller's project, so an id of another project reads as absent
 * (the agent tools in server/mcp call these).
 */
import { procedure, router } from "../trpc";
import { actorOf } from "@/server/registry/actor";
import { searchesService } from "@/server/searches/searches.service";
import { ZListSearchesInput, ZProposeInput, ZScopedSearchInput, ZSearchActionInput, ZSearchIdInput, ZStartSearchInput, ZTrialIdInput } from "@/server/searches/searches.schema";

export const searchesRouter = router({
  start: procedure.input(ZStartSearchInput).mutation(({ input, ctx }) => searchesService().start(input, ctx.principal)),
  list: procedure.input(ZListSearchesInput).query(({ input }) => searchesService().list(input.projectId)),
  get: procedure.input(ZSearchIdInput).query(({ input }) => searchesService().get(input.id)),
  /** The search without any test score: what a planner or an agent may read. */
  validation: procedure.input(ZScopedSearchInput).query(({ input }) => searchesService().validation(input.id, input.projectId)),
  pause: procedure.input(ZSearchActionInput).mutation(({ input }) => searchesService().pause(input.id, input.revision)),
  resume: procedure.input(ZSearchActionInput).mutation(({ input }) => searchesService().resume(input.id, input.revision)),
  stop: procedure.input(ZSearchActionInput).mutation(({ input }) => searchesService().stop(input.id, input.revision)),
  propose: procedure.input(ZProposeInput).mutation(({ input, ctx }) => searchesService().propose(input, actorOf(ctx.principal).name)),
  cancelTrial: procedure.input(ZTrialIdInput).mutation(({ input }) => searchesService().cancelTrial(input.trialId, input.projectId)),
});
