/**
 * Prisma access for the notifier: channels, notifications and their deliveries. A delivery
 * is due when it is pending, its next attempt is due and its channel exists and is enabled
 * (the table keeps the channel's id only, so the channel filter is a list of ids).
 */
import { getDb, type Db } from "@/server/db/client";

export interface NewNotification {
  id: string;
  kind: string;
  projectId: string | null;
  title: string;
  body: string;
  link: string | null;
}

export interface AttemptRecord {
  state: "pending" | "delivered" | "failed";
  lastStatus: number | null;
  lastError: string | null;
  nextAttemptAt: Date;
  deliveredAt: Date | null;
}

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === "P2002" || /Unique constraint/i.test(e?.message ?? "");
}

export function notificationsRepository(db: Db = getDb()) {
  const enabledChannelIds = async () => (await db.notificationChannel.findMany({ where: { enabled: true }, select: { id: true } })).map((c) => c.id);
  const due = async (now: Date) => ({ state: "pending", nextAttemptAt: { lte: now }, channelId: { in: await enabledChannelIds() } });
  return {
    channels: () => db.notificationChannel.findMany({ orderBy: { createdAt: "asc" } }),
    channel: (id: string) => db.notificationChannel.findUnique({ where: { id } }),
    createChannel: (data: { kind: string; name: string; url: string; secret: string | null }) => db.notificationChannel.create({ data }),
    setChannelEnabled: (id: string, enabled: boolean) => db.notificationChannel.update({ where: { id }, data: { enabled } }),
    /** Removes the channel; what was still pending for it is closed as failed, with why, so the log says what never went out. */
    removeChannel: (id: string) =>
      db.$transaction([
        db.notificationDelivery.updateMany({ where: { channelId: id, state: "pending" }, data: { state: "failed", lastError: "the channel was removed before this was delivered" } }),
        db.notificationChannel.delete({ where: { id } }),
      ]),
    enabledChannelIds,
    /**
     * The notification with one pending delivery per enabled channel (or for the one channel
     * a test addresses), in one transaction; false when
     * a notification with this id exists (the same event noticed again, after a restart too).
     */
    async createOnce(n: NewNotification, to: { onlyChannelId: string } | "enabled channels"): Promise<boolean> {
      try {
        return await db.$transaction(async (tx) => {
          if (await tx.notification.findUnique({ where: { id: n.id }, select: { id: true } })) return false;
          const channelIds = to === "enabled channels" ? (await tx.notificationChannel.findMany({ where: { enabled: true }, select: { id: true } })).map((c) => c.id) : [to.onlyChannelId];
          await tx.notification.create({ data: { ...n, deliveries: { create: channelIds.map((channelId) => ({ channelId })) } } });
          return true;
        });
      } catch (err) {
        // Two writers at once: the other one created it.
        if (isUniqueViolation(err)) return false;
        throw err;
      }
    },
    async dueNotificationIds(now: Date): Promise<{ id: string }[]> {
      const rows = await db.notificationDelivery.findMany({ where: await due(now), select: { notificationId: true }, distinct: ["notificationId"], orderBy: { id: "asc" } });
      return rows.map((r) => ({ id: r.notificationId }));
    },
    async dueDeliveries(notificationId: string, now: Date) {
      return db.notificationDelivery.findMany({ where: { notificationId, ...(await due(now)) }, include: { notification: true }, orderBy: { id: "asc" } });
    },
    /**
     * Takes a due delivery for one attempt: moves its next attempt to `until`, only if it is
     * still pending and due. True for exactly one caller; a process that dies mid-attempt
     * leaves it due again at `until`.
     */
    async claim(deliveryId: number, now: Date, until: Date): Promise<boolean> {
      const { count } = await db.notificationDelivery.updateMany({ where: { id: deliveryId, state: "pending", nextAttemptAt: { lte: now } }, data: { nextAttemptAt: until } });
      return count === 1;
    },
    recordAttempt: (deliveryId: number, r: AttemptRecord) => db.notificationDelivery.update({ where: { id: deliveryId }, data: { ...r, attempts: { increment: 1 } } }),
    delivery: (notificationId: string, channelId: string) => db.notificationDelivery.findUnique({ where: { notificationId_channelId: { notificationId, channelId } } }),
    /** The newest deliveries first, with their notification. */
    recentDeliveries: (limit: number) => db.notificationDelivery.findMany({ include: { notification: true }, orderBy: { id: "desc" }, take: limit }),
    channelNames: async (ids: readonly string[]) =>
      new Map((await db.notificationChannel.findMany({ where: { id: { in: [...ids] } }, select: { id: true, name: true } })).map((c) => [c.id, c.name])),
  };
}
