/**
 * The one way server code tells the owner something (schedules, monitors): records the
 * notification once per event key, with a pending delivery for each enabled channel, and
 * wakes the notifications reconciler, which delivers it and retries (reconcilers/notifications.ts).
 * The same key again — a restart that notices the same event, two ticks at once — creates
 * nothing and sends nothing. A notification raised while no channel is enabled is kept
 * (the delivery log shows nothing for it) and is not sent to channels added later.
 */
import { ZNotifyInput, type NotificationKind } from "@/contracts/notifications/notifications";
import type { Db } from "@/server/db/client";
import { publish } from "@/server/events/bus";
import { notificationsRepository } from "./notifications.repository";

export async function notify(
  db: Db,
  n: { id: string; kind: NotificationKind; projectId?: string | null; title: string; body: string; link?: string | null },
): Promise<{ created: boolean }> {
  const created = await notificationsRepository(db).createOnce(ZNotifyInput.parse(n), "enabled channels");
  if (created) publish({ type: "notification.changed", notificationId: n.id });
  return { created };
}
