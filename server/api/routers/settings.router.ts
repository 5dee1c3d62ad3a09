import { procedure, router } from "../trpc";
import { settingsService } from "@/server/settings/settings.service";
import { ZUpdateSettingsInput } from "@/server/settings/settings.schema";
import { agentPolicyView, updateAgentPolicy, ZUpdateAgentPolicyInput } from "@/server/settings/agent-policy";

export const settingsRouter = router({
  get: procedure.query(() => settingsService().get()),
  update: procedure.input(ZUpdateSettingsInput).mutation(({ input }) => settingsService().update(input)),
  /** What agents may do (mayPromote, off by default) and what the caller's credentials allow. */
  agents: procedure.query(({ ctx }) => agentPolicyView(ctx.principal)),
  /** Owner only: an API token is refused (FORBIDDEN, details.code owner_only). */
  updateAgents: procedure.input(ZUpdateAgentPolicyInput).mutation(({ input, ctx }) => updateAgentPolicy(input, ctx.principal)),
});
