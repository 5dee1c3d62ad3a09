/**
 * The notifier (issue 31; server/notifications; docs/notifications.md): what tRPC
 * `notifications.*` takes and answers, one definition for every door. A channel is where
 * notifications go (a signed webhook, or an ntfy topic); a delivery is one notification's
 * way to one channel, with its retries.
 */
import { z } from "zod";

/** What a notification is about; each has a stable id, so the same event is never told twice. */
export const NOTIFICATION_KINDS = ["run_beat_incumbent", "run_failed", "cap_reached", "decision_waiting", "monitor_alert", "promotion_reverted", "test"] as const;
export const ZNotificationKind = z.enum(NOTIFICATION_KINDS);
export type NotificationKind = z.infer<typeof ZNotificationKind>;

export const CHANNEL_KINDS = ["webhook", "ntfy"] as const;
export const ZChannelKind = z.enum(CHANNEL_KINDS);
export type ChannelKind = z.infer<typeof ZChannelKind>;

/** pending: waiting for its next attempt; delivered: a 2xx answered; failed: given up after the last retry. */
export const DELIVERY_STATES = ["pending", "delivered", "failed"] as const;
export const ZDeliveryState = z.enum(DELIVERY_STATES);
export type DeliveryState = z.infer<typeof ZDeliveryState>;

/** An http(s) URL: a notifier posts to nothing else (no file:, no javascript:). */
export const ZHttpUrl = z
  .string()
  .trim()
  .max(2000)
  .pipe(z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" }));

const name = z.string().trim().min(1).max(100);
const id = z.string().min(1).max(64);

/**
 * Both kinds take the same fields (one object, not a union, so an unknown field is refused
 * by name): `url` is where a webhook receives each notification as signed JSON (Standard
 * Webhooks), or an ntfy topic's URL (https://ntfy.sh/my-secret-topic). A webhook's secret
 * is made by the server, never chosen.
 */
export const ZCreateChannelInput = z.strictObject({ kind: ZChannelKind, name, url: ZHttpUrl });
export type CreateChannelInput = z.infer<typeof ZCreateChannelInput>;

export const ZChannelIdInput = z.strictObject({ channelId: id });
export const ZSetChannelEnabledInput = z.strictObject({ channelId: id, enabled: z.boolean() });

/** A channel as every answer shows it: never its secret (see ZCreatedChannel). */
export const ZChannelView = z.strictObject({
  id: z.string(),
  kind: ZChannelKind,
  name: z.string(),
  url: z.string(),
  enabled: z.boolean(),
  createdAt: z.iso.datetime(),
});
export type ChannelView = z.infer<typeof ZChannelView>;

/** The create answer: the only time a webhook's signing secret is shown ("whsec_…"); null for ntfy. */
export const ZCreatedChannel = z.strictObject({ channel: ZChannelView, secret: z.string().nullable() });
export type CreatedChannel = z.infer<typeof ZCreatedChannel>;

/** What Test answers once its first attempt ended, or after about 10 s without one. */
export const ZChannelTestResult = z.strictObject({
  notificationId: z.string(),
  delivered: z.boolean(),
  /** The HTTP status the channel answered, if it answered. */
  status: z.int().nullable(),
  /** Why it was not delivered, in words; null when delivered. */
  error: z.string().nullable(),
});
export type ChannelTestResult = z.infer<typeof ZChannelTestResult>;

/** One row of the delivery log (newest first). */
export const ZDeliveryView = z.strictObject({
  id: z.int(),
  notificationId: z.string(),
  kind: ZNotificationKind,
  title: z.string(),
  notificationCreatedAt: z.iso.datetime(),
  channelId: z.string(),
  /** null: the channel was removed since. */
  channelName: z.string().nullable(),
  state: ZDeliveryState,
  attempts: z.int().nonnegative(),
  lastError: z.string().nullable(),
  lastStatus: z.int().nullable(),
  deliveredAt: z.iso.datetime().nullable(),
  /** When the next attempt is due; null unless pending. */
  nextAttemptAt: z.iso.datetime().nullable(),
});
export type DeliveryView = z.infer<typeof ZDeliveryView>;

/** The body a webhook receives (JSON, signed); `link` is absolute when the server knows its address. */
export const ZWebhookPayload = z.strictObject({
  id: z.string(),
  kind: ZNotificationKind,
  title: z.string(),
  body: z.string(),
  link: z.string().nullable(),
  projectId: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
export type WebhookPayload = z.infer<typeof ZWebhookPayload>;

/** Longer titles and bodies are cut, not refused: a notification never fails the work that raised it. */
const clipped = (max: number) => z.string().transform((s) => (s.length > max ? `${s.slice(0, max - 1)}…` : s));

/** What server code hands `notify` (server/notifications/notify.ts). */
export const ZNotifyInput = z.strictObject({
  /** The event's stable key ("schedule-run:<id>:beat", "monitor-alert:<id>"): the same key again creates nothing. */
  id: z.string().min(1).max(200),
  kind: ZNotificationKind,
  projectId: z.string().nullish().transform((v) => v ?? null),
  title: z.string().trim().min(1).pipe(clipped(200)),
  body: clipped(3000),
  /** A path in the app ("/projects/…"); made absolute at delivery when the server knows its address. */
  link: z.string().startsWith("/").max(2000).nullish().transform((v) => v ?? null),
});
export type NotifyInput = z.input<typeof ZNotifyInput>;
