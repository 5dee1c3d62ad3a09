"use client";
import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc";
import { QueryState } from "@/components/ui/query-state";
import { AddChannelForm } from "./add-channel-form";
import { ChannelRow } from "./channel-row";
import { DeliveryLog } from "./delivery-log";

/** Settings → Notifications: where Trainyard tells the owner what matters, and whether it got there. */
export function NotificationsSettings() {
  const trpc = useTRPC();
  const channels = useQuery(trpc.notifications.channels.queryOptions());
  return (
    <section aria-labelledby="notifications-heading" className="flex min-w-0 flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="notifications-heading" className="text-lg font-semibold">
        Notifications
      </h2>
      <p className="text-sm text-slate-700">
        A run that beat the model in use, a run that failed, a cap reached, a decision waiting for you and a monitor&rsquo;s alert are sent to every enabled channel. Routine
        progress is not.
      </p>
      <QueryState query={channels} loading="Loading the channels…" failure="Could not load the channels" />
      {channels.data?.length === 0 && <p className="text-sm text-slate-700">No channel yet: add one below to be told.</p>}
      {channels.data && channels.data.length > 0 && (
        <ul className="flex flex-col gap-3" aria-label="Notification channels">
          {channels.data.map((c) => (
            <ChannelRow key={c.id} channel={c} />
          ))}
        </ul>
      )}
      <AddChannelForm />
      <DeliveryLog />
    </section>
  );
}
