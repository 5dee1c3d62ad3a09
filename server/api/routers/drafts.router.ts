import { procedure, router } from "../trpc";
import { draftsService } from "@/server/drafts/drafts.service";
import { ZDraftGetInput, ZDraftSaveInput } from "@/server/drafts/drafts.schema";

export const draftsRouter = router({
  get: procedure.input(ZDraftGetInput).query(({ input }) => draftsService().get(input.projectId)),
  save: procedure.input(ZDraftSaveInput).mutation(({ input }) => draftsService().save(input)),
  discard: procedure.input(ZDraftGetInput).mutation(({ input }) => draftsService().discard(input.projectId)),
});
