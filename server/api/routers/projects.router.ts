import { procedure, router } from "../trpc";
import { projectsService } from "@/server/projects/projects.service";
import {
  ZArchiveProjectInput,
  ZCreateProjectInput,
  ZListProjectsInput,
  ZProjectIdInput,
  ZRenameProjectInput,
  ZSetDefaultComputerInput,
} from "@/server/projects/projects.schema";

export const projectsRouter = router({
  list: procedure.input(ZListProjectsInput).query(({ input }) => projectsService().list(input.includeArchived)),
  get: procedure.input(ZProjectIdInput).query(({ input }) => projectsService().get(input.id)),
  create: procedure.input(ZCreateProjectInput).mutation(({ input }) => projectsService().create(input.name)),
  rename: procedure
    .input(ZRenameProjectInput)
    .mutation(({ input }) => projectsService().rename(input.id, input.name, input.revision)),
  archive: procedure.input(ZArchiveProjectInput).mutation(({ input }) => projectsService().archive(input.id, input.revision)),
  restore: procedure.input(ZArchiveProjectInput).mutation(({ input }) => projectsService().restore(input.id, input.revision)),
  setDefaultComputer: procedure
    .input(ZSetDefaultComputerInput)
    .mutation(({ input }) => projectsService().setDefaultComputer(input.id, input.targetId)),
});
