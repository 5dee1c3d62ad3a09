"use client";
import { useQuery } from "@tanstack/react-query";
import type { DeliveryState, DeliveryView, NotificationKind } from "@/contracts/notifications/notifications";
import { useTRPC } from "@/components/providers/trpc";
import { QueryState } from "@/components/ui/query-state";
import { formatTime } from "../format";

const KIND_WORDS: Record<NotificationKind, string> = {
  run_beat_incumbent: "better run",
  run_failed: "run failed",
  cap_reached: "cap reached",
  decision_waiting: "decision waiting",
  monitor_alert: "monitor alert",
  promotion_reverted: "promotion reverted",
  test: "test",
};

const STATE_STYLE: Record<DeliveryState, string> = {
  pending: "bg-amber-100 text-amber-900",
  delivered: "bg-green-100 text-green-900",
  failed: "bg-red-100 text-red-900",
};

/** The last deliveries, newest first, as stacked rows (no table: it must read on a 390 px phone). */
export function DeliveryLog() {
  const trpc = useTRPC();
  const log = useQuery(trpc.notifications.deliveries.queryOptions());
  return (
    <section aria-labelledby="delivery-log-heading" className="flex min-w-0 flex-col gap-2 border-t border-slate-100 pt-3">
      <h3 id="delivery-log-heading" className="text-base font-semibold">
        Delivery log
      </h3>
      <QueryState query={log} loading="Loading the delivery log…" failure="Could not load the delivery log" />
      {log.data?.length === 0 && <p className="text-sm text-slate-700">Nothing sent yet. Test a channel to see its delivery here.</p>}
      {log.data && log.data.length > 0 && (
        <ul className="flex flex-col gap-2" aria-label="Deliveries, newest first">
          {log.data.map((d) => (
            <DeliveryRow key={d.id} d={d} />
          ))}
        </ul>
      )}
      {log.isRefetchError && <p className="text-xs text-slate-700">Showing the log as last loaded; refreshing it failed.</p>}
    </section>
  );
}

function DeliveryRow({ d }: { d: DeliveryView }) {
  return (
    <li className="flex min-w-0 flex-col gap-1 rounded-md border border-slate-200 p-2 text-sm">
      <div className="flex min-w-0 flex-wrap items-center gap-2">
        <span className={`rounded px-2 py-0.5 text-xs font-medium ${STATE_STYLE[d.state]}`}>{d.state}</span>
        <span className="min-w-0 break-words font-medium">{d.title}</span>
      </div>
      <p className="break-words text-xs text-slate-700">
        {KIND_WORDS[d.kind]} · to {d.channelName ?? "a removed channel"} · raised {formatTime(d.notificationCreatedAt)}
      </p>
      <p className="break-words text-xs text-slate-700">{attemptWords(d)}</p>
      {d.lastError && d.state !== "delivered" && <p className="break-all text-xs text-red-800">Last error: {d.lastError}</p>}
    </li>
  );
}

function attemptWords(d: DeliveryView): string {
  const tries = `${d.attempts} attempt${d.attempts === 1 ? "" : "s"}`;
  const status = d.lastStatus ? `, last HTTP ${d.lastStatus}` : "";
  if (d.state === "delivered") return `Delivered ${formatTime(d.deliveredAt)} (${tries}${status}).`;
  if (d.state === "failed") return `Gave up after ${tries}${status}.`;
  return d.attempts === 0 ? `Sending (next attempt ${formatTime(d.nextAttemptAt)}).` : `Retrying at ${formatTime(d.nextAttemptAt)} (${tries}${status}).`;
}
