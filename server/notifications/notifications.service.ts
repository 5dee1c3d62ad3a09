/**
 * Notifier operations, as the router and the notifications reconciler call them: channels
 * (add, list, enable or disable, remove, test), the delivery log, and delivering what is
 * due. Delivery is at least once: each attempt is claimed first (so two sweeps never send
 * the same delivery at once), but a server killed between the receiver's answer and its
 * record sends that one again after the restart, with the same webhook-id.
 */
import { randomUUID } from "node:crypto";
import {
  ZChannelKind,
  ZNotificationKind,
  type ChannelTestResult,
  type ChannelView,
  type CreateChannelInput,
  type CreatedChannel,
  type DeliveryView,
} from "@/contracts/notifications/notifications";
import { controllerRuntime } from "@/server/config/runtime";
import { getDb, type Db } from "@/server/db/client";
import { conflict, notFound } from "@/server/errors";
import { publish } from "@/server/events/bus";
import { retryDelayMs } from "./backoff";
import { ATTEMPT_TIMEOUT_MS, attemptDelivery, type AttemptOutcome } from "./deliver";
import { notificationsRepository } from "./notifications.repository";
import { newWebhookSecret } from "./webhook";

/** Rows of the delivery log an answer holds. */
export const DELIVERY_LOG_SIZE = 100;
/** How long Test waits for its first attempt: the attempt's own limit and some room to start it. */
const TEST_WAIT_MS = ATTEMPT_TIMEOUT_MS + 2_000;
/** A claimed delivery is due again this long after its claim if its process died mid-attempt. */
const CLAIM_MS = ATTEMPT_TIMEOUT_MS * 6;
const DEFAULT_RETRY_MS = 30_000;

type ChannelRow = { id: string; kind: string; name: string; url: string; enabled: boolean; createdAt: Date };

function channelView(c: ChannelRow): ChannelView {
  return { id: c.id, kind: ZChannelKind.parse(c.kind), name: c.name, url: c.url, enabled: c.enabled, createdAt: c.createdAt.toISOString() };
}

/** The controller's settings when it runs; the defaults otherwise (a service used alone, in a test). */
function notifierSettings(): { retryBaseMs: number; origin: string | null } {
  try {
    const { config } = controllerRuntime();
    return { retryBaseMs: config.notifyRetryMs, origin: config.publicOrigin ?? config.url };
  } catch {
    return { retryBaseMs: DEFAULT_RETRY_MS, origin: null };
  }
}

/** What an attempt leaves on its delivery: delivered, due again after the backoff, or given up. */
function afterAttempt(outcome: AttemptOutcome, attempts: number, retryBaseMs: number, at: Date) {
  const common = { lastStatus: outcome.status, lastError: outcome.error };
  if (outcome.delivered) return { ...common, state: "delivered" as const, deliveredAt: at, nextAttemptAt: at };
  const delay = retryDelayMs(attempts, retryBaseMs);
  if (delay === null) return { ...common, state: "failed" as const, deliveredAt: null, nextAttemptAt: at };
  return { ...common, state: "pending" as const, deliveredAt: null, nextAttemptAt: new Date(at.getTime() + delay) };
}

export function notificationsService(db: Db = getDb(), log: (line: string) => void = (l) => console.error(l)) {
  const repo = notificationsRepository(db);
  const findChannel = async (id: string) => {
    const c = await repo.channel(id);
    if (!c) throw notFound(`There is no notification channel ${id}; it may have been removed.`);
    return c;
  };

  /** One due delivery: claimed, attempted, recorded; false when another sweep had it. */
  const deliverOne = async (d: Awaited<ReturnType<typeof repo.dueDeliveries>>[number], now: Date, settings: ReturnType<typeof notifierSettings>) => {
    if (!(await repo.claim(d.id, now, new Date(now.getTime() + CLAIM_MS)))) return false;
    const channel = await repo.channel(d.channelId);
    // Disabled or removed since it was listed: held (or closed by the removal), not sent.
    if (!channel?.enabled) return false;
    const n = d.notification;
    const link = n.link && settings.origin ? new URL(n.link, settings.origin).href : n.link;
    const outcome = await attemptDelivery({ kind: ZChannelKind.parse(channel.kind), url: channel.url, secret: channel.secret }, { ...n, kind: ZNotificationKind.parse(n.kind), link });
    const attempts = d.attempts + 1;
    const next = afterAttempt(outcome, attempts, settings.retryBaseMs, new Date());
    await repo.recordAttempt(d.id, next);
    if (next.state === "failed") log(`notifications: gave up on "${n.title}" to the channel "${channel.name}" after ${attempts} attempts: ${outcome.error}`);
    return true;
  };

  return {
    async channels(): Promise<ChannelView[]> {
      return (await repo.channels()).map(channelView);
    },
    /** A webhook gets its signing secret here; this answer is the only one that shows it. */
    async createChannel(input: CreateChannelInput): Promise<CreatedChannel> {
      const secret = input.kind === "webhook" ? newWebhookSecret() : null;
      const c = await repo.createChannel({ kind: input.kind, name: input.name, url: input.url, secret });
      return { channel: channelView(c), secret };
    },
    async removeChannel(channelId: string): Promise<{ removed: string }> {
      await findChannel(channelId);
      await repo.removeChannel(channelId);
      return { removed: channelId };
    },
    /** A disabled channel is sent nothing; what was pending for it waits and goes out once it is enabled again. */
    async setChannelEnabled(channelId: string, enabled: boolean): Promise<ChannelView> {
      await findChannel(channelId);
      // Held deliveries go out with the reconciler's next sweep (within seconds).
      return channelView(await repo.setChannelEnabled(channelId, enabled));
    },
    /** Sends a notification of kind "test" to this channel alone and answers its first attempt (or that none ended in time). */
    async test(channelId: string): Promise<ChannelTestResult> {
      const channel = await findChannel(channelId);
      if (!channel.enabled) throw conflict(`The channel "${channel.name}" is disabled; enable it to test it.`, { code: "channel_disabled" });
      const id = `test:${channel.id}:${randomUUID()}`;
      const body = `A test from Trainyard to the channel "${channel.name}". If you can read this, notifications reach you here.`;
      await repo.createOnce({ id, kind: "test", projectId: null, title: "Trainyard test notification", body, link: "/settings" }, { onlyChannelId: channel.id });
      publish({ type: "notification.changed", notificationId: id });
      const until = Date.now() + TEST_WAIT_MS;
      for (;;) {
        const d = await repo.delivery(id, channel.id);
        if (d && d.attempts > 0) return { notificationId: id, delivered: d.state === "delivered", status: d.lastStatus, error: d.lastError };
        if (Date.now() > until)
          return { notificationId: id, delivered: false, status: null, error: `No attempt ended within ${TEST_WAIT_MS / 1000} s; the delivery log shows the outcome when one does.` };
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    /** The delivery log, newest first. */
    async deliveries(): Promise<DeliveryView[]> {
      const rows = await repo.recentDeliveries(DELIVERY_LOG_SIZE);
      const names = await repo.channelNames([...new Set(rows.map((r) => r.channelId))]);
      return rows.map((d) => ({
        id: d.id,
        notificationId: d.notificationId,
        kind: ZNotificationKind.parse(d.notification.kind),
        title: d.notification.title,
        notificationCreatedAt: d.notification.createdAt.toISOString(),
        channelId: d.channelId,
        channelName: names.get(d.channelId) ?? null,
        state: d.state === "delivered" || d.state === "failed" ? d.state : "pending",
        attempts: d.attempts,
        lastError: d.lastError,
        lastStatus: d.lastStatus,
        deliveredAt: d.deliveredAt?.toISOString() ?? null,
        nextAttemptAt: d.state === "pending" ? d.nextAttemptAt.toISOString() : null,
      }));
    },
    /** Notifications with a delivery due now (the reconciler's active rows). */
    dueNotifications: () => repo.dueNotificationIds(new Date()),
    /** Attempts every due delivery of one notification, each channel at once (a slow one holds up no other). */
    async sendDue(notificationId: string): Promise<void> {
      const now = new Date();
      const settings = notifierSettings();
      const due = await repo.dueDeliveries(notificationId, now);
      const attempted = await Promise.all(due.map((d) => deliverOne(d, now, settings)));
      if (attempted.some(Boolean)) publish({ type: "notification.changed", notificationId });
    },
  };
}
