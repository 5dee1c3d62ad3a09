import { procedure, router } from "../trpc";
import { prepareEnvironment } from "@/server/jobs/environments";
import { ZPrepareRecipeInput } from "@/server/jobs/jobs.schema";
import { sshComputersService } from "@/server/targets/ssh/ssh-computers.service";
import { ZAcceptHostKeyInput, ZAddServerInput, ZForgetHostKeyInput, ZSetEnabledInput, ZUpdateServerInput } from "@/server/targets/ssh/ssh-target.schema";
import { slurmComputersService } from "@/server/targets/slurm/slurm-computers.service";
import { ZAddSlurmInput } from "@/server/targets/slurm/slurm-target.schema";
import { targetsService } from "@/server/targets/targets.service";
import { ZTargetIdInput } from "@/server/targets/targets.schema";

export const targetsRouter = router({
  list: procedure.query(() => targetsService().list()),
  get: procedure.input(ZTargetIdInput).query(({ input }) => targetsService().get(input.id)),
  probe: procedure.input(ZTargetIdInput).mutation(({ input }) => targetsService().probe(input.id)),
  /** Starts building a recipe's environment (a tracked job); does not wait for it. */
  prepareRecipe: procedure.input(ZPrepareRecipeInput).mutation(({ input }) => prepareEnvironment(input.targetId, input.recipe)),
  /** Enrols a Slurm cluster whose login node is this computer, and probes it (a tiny job on a compute node). */
  addSlurm: procedure.input(ZAddSlurmInput).mutation(({ input }) => slurmComputersService().add(input)),
  addServer: procedure.input(ZAddServerInput).mutation(({ input }) => sshComputersService().add(input)),
  updateServer: procedure.input(ZUpdateServerInput).mutation(({ input }) => sshComputersService().update(input)),
  testAccess: procedure.input(ZTargetIdInput).mutation(({ input }) => sshComputersService().testAccess(input.id)),
  setupPlan: procedure.input(ZTargetIdInput).query(({ input }) => sshComputersService().setupPlan(input.id)),
  setup: procedure.input(ZTargetIdInput).mutation(({ input }) => sshComputersService().setup(input.id)),
  acceptHostKey: procedure.input(ZAcceptHostKeyInput).mutation(({ input }) => sshComputersService().acceptKey(input)),
  acceptedHostKeys: procedure.query(() => sshComputersService().acceptedKeys()),
  forgetHostKey: procedure.input(ZForgetHostKeyInput).mutation(({ input }) => sshComputersService().forgetKey(input)),
  setEnabled: procedure.input(ZSetEnabledInput).mutation(({ input }) => sshComputersService().setEnabled(input)),
  remove: procedure.input(ZTargetIdInput).mutation(({ input }) => sshComputersService().remove(input.id)),
});
