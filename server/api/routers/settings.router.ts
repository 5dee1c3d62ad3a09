import { procedure, router } from "../trpc";
import { settingsService } from "@/server/settings/settings.service";
import { ZUpdateSettingsInput } from "@/server/settings/settings.schema";

export const settingsRouter = router({
  get: procedure.query(() => settingsService().get()),
  update: procedure.input(ZUpdateSettingsInput).mutation(({ input }) => settingsService().update(input)),
});
