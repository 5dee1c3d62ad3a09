/**
 * The notifier (issue 31; server/notifications; docs/notifications.md), shapes in
 * contracts/notifications: channels, createChannel {kind: webhook|ntfy, name, url} (a
 * webhook's signing secret is in this answer only), removeChannel / testChannel
 * {channelId}, setChannelEnabled {channelId, enabled}, deliveries (the log, newest first).
 * testChannel sends a test notification to that channel alone and answers its first attempt.
 */
import { procedure, router } from "../trpc";
import { ZChannelIdInput, ZCreateChannelInput, ZSetChannelEnabledInput } from "@/contracts/notifications/notifications";
import { notificationsService } from "@/server/notifications/notifications.service";

export const notificationsRouter = router({
  channels: procedure.query(() => notificationsService().channels()),
  createChannel: procedure.input(ZCreateChannelInput).mutation(({ input }) => notificationsService().createChannel(input)),
  removeChannel: procedure.input(ZChannelIdInput).mutation(({ input }) => notificationsService().removeChannel(input.channelId)),
  setChannelEnabled: procedure.input(ZSetChannelEnabledInput).mutation(({ input }) => notificationsService().setChannelEnabled(input.channelId, input.enabled)),
  testChannel: procedure.input(ZChannelIdInput).mutation(({ input }) => notificationsService().test(input.channelId)),
  deliveries: procedure.query(() => notificationsService().deliveries()),
});
