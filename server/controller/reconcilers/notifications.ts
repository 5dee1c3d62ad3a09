/**
 * Notifications: a new notification (or a test) is delivered at once, woken by its
 * `notification.changed`; the sweep sends retries whose backoff has passed, and what was
 * due while the server was down (after a restart nothing is resent that was recorded as
 * delivered: the sweep reads only pending deliveries).
 */
import type { Db } from "@/server/db/client";
import { notificationsService } from "@/server/notifications/notifications.service";
import { defineReconciler } from "../define-reconciler";

export const notifications = (db: Db, everyMs = 5000) =>
  defineReconciler({
    name: "notifications",
    everyMs,
    active: () => notificationsService(db).dueNotifications(),
    advance: (id) => notificationsService(db).sendDue(id),
    wakeOn: (e) => (e.event.type === "notification.changed" ? e.event.notificationId : null),
  });
